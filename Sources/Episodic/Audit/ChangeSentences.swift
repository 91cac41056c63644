import PodcastDomain

extension HistoryEntry.Change {
    /// The change as a person says it: `retitled episode "Show/3" from "A" to "B"`,
    /// `deleted episode "Show/3" ("Pilot")`.
    public var sentence: String {
        let titled = title.map { "\(entity) (\(FieldText.text($0)))" } ?? entity
        let font = entity.hasPrefix("font ")
        switch (field, after) {
        case ("existence", "created"): return (font ? "imported " : "created ") + titled
        case ("existence", "deleted"): return (font ? "removed " : "deleted ") + titled
        case ("existence", "restored"): return "restored \(titled)"
        default: break
        }
        let verb: String? = switch field {
        case EntityField.title.rawValue: "retitled"
        case EntityField.name.rawValue: "renamed"
        case EntityField.number.rawValue: "renumbered"
        default: nil
        }
        if let verb { return "\(verb) \(entity) from \(before) to \(after)" }
        // Content: what was made of it, then the value (a size and a hash) after a colon.
        switch (EntityField(rawValue: field), before == "none", after == "none") {
        case (.transcript?, true, false): return "imported a transcript into \(entity): \(after)"
        case (.transcript?, false, false): return "replaced the transcript of \(entity): \(after)"
        case (.subtitles?, _, false): return "converted the transcript of \(entity) to subtitles: \(after)"
        case (.thumbnail?, _, false): return "rendered the thumbnail of \(entity): \(after)"
        default: break
        }
        let what = fieldName
        if !parts.isEmpty { return "changed the \(what) of \(entity): \(partsText)" }
        if after == "none" { return "removed the \(what) of \(entity) (was \(before))" }
        if before == "none" { return "set the \(what) of \(entity) to \(after)" }
        return "changed the \(what) of \(entity) from \(before) to \(after)"
    }

    /// The field as people say it: `title`, `publish date`, `thumbnail settings`.
    public var fieldName: String { EntityField(rawValue: field).map(Self.words) ?? field }

    /// The parts of a field that changed: `size: 72 pt → 96 pt; font: default → Serif Bold`.
    public var partsText: String { parts.map { "\($0.name): \($0.before) → \($0.after)" }.joined(separator: "; ") }

    private static func words(_ field: EntityField) -> String {
        switch field {
        case .defaultOverlay: "default overlay"
        case .defaultBackground: "default background"
        case .thumbnailDefaults: "thumbnail defaults"
        case .defaultThumbnailText: "default thumbnail text"
        case .publishDate: "publish date"
        case .thumbnailSettings: "thumbnail settings"
        case .thumbnailText: "thumbnail text"
        default: field.rawValue
        }
    }
}

extension HistoryEntry {
    /// What the command did, in one sentence (see ``sentence(_:)``).
    public var sentence: String { Self.sentence(changes) }

    /// Changes in one sentence: joined, an entity's fields left out when the command created, deleted
    /// or restored it (its name says enough then).
    public static func sentence(_ changes: [Change]) -> String {
        let whole = Set(changes.filter { $0.field == "existence" }.map(\.entity))
        let told = changes.filter { $0.field == "existence" || !whole.contains($0.entity) }
        guard !told.isEmpty else { return "changed nothing" }
        return told.map(\.sentence).joined(separator: "; ")
    }
}
