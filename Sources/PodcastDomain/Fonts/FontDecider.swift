import CoreValues

/// A font in the library: the name thumbnail settings call it by, and its file's bytes in the blob store.
public struct ImportedFont: Hashable, Sendable, Codable {
    public var name: String
    public var font: BlobRef

    public init(name: String, font: BlobRef) {
        self.name = name
        self.font = font
    }
}

/// The fonts stream folded: every imported font, found by its name ignoring case and surrounding spaces.
public struct FontLibraryState: Hashable, Sendable {
    private var byKey: [String: ImportedFont] = [:]

    public init() {}

    /// The font `name` calls for, ignoring case and surrounding spaces.
    public func font(named name: String) -> ImportedFont? { byKey[Rules.nameKey(name)] }

    /// Every font, by name (ignoring case).
    public var fonts: [ImportedFont] {
        byKey.sorted { $0.key < $1.key }.map(\.value)
    }

    fileprivate mutating func set(_ font: ImportedFont?, for name: String) {
        byKey[Rules.nameKey(name)] = font
    }
}

/// What a user can ask of the library's fonts.
///
/// The shell stores the font file as a blob and checks that it can be drawn with before it decides: the
/// domain cannot read fonts, and knows a font only by its reference.
public enum FontCommand: Hashable, Sendable {
    /// Imports the font stored as `font` under `name`, which no other font may have (ignoring case).
    case `import`(name: String, font: BlobRef)
    /// Removes the font called `name` (ignoring case). Refused while episodes' thumbnail settings name
    /// it, unless `force`: their settings keep the name, rendering with them is refused until a font of
    /// that name is imported again, and thumbnails drawn in it become outdated.
    case remove(name: String, force: Bool = false)
}

/// What a font command's rule looks at besides the fonts.
public struct FontFacts: Sendable {
    /// For a remove: the live episodes whose thumbnail settings name the font, as people name them
    /// (`Night Shift/4`).
    public var episodesUsing: [String]
    /// For a remove: the live episodes whose current thumbnail was drawn in the font (and is not already
    /// outdated), which a forced removal marks outdated.
    public var thumbnailsDrawnIn: [EpisodeID]

    public init(episodesUsing: [String] = [], thumbnailsDrawnIn: [EpisodeID] = []) {
        self.episodesUsing = episodesUsing
        self.thumbnailsDrawnIn = thumbnailsDrawnIn
    }
}

/// The fonts aggregate: one stream, `fonts`, for the whole library. It is short (a few events per font),
/// so the shell folds all of it for any command that needs to know the fonts.
public enum FontDecider: Decider {
    /// The name of the one stream of font events.
    public static let streamName = "fonts"
    public static let initial = FontLibraryState()

    /// The events `command` produces, or the rule it breaks. Importing the same font under the same name
    /// again changes nothing.
    public static func decide(_ command: FontCommand, _ state: FontLibraryState, _ facts: FontFacts = FontFacts()) throws(DomainError) -> [DomainEvent] {
        switch command {
        case let .import(requested, font):
            let name = try Rules.name(requested, .fontName)
            if let existing = state.font(named: name) {
                if existing == ImportedFont(name: name, font: font) { return [] }
                throw .fontNameTaken(existing.name)
            }
            if let same = state.fonts.first(where: { $0.font == font }) { throw .fontAlreadyImported(as: same.name) }
            return [.fontImported(FontImported(name: name, font: font))]
        case let .remove(requested, force):
            let name = try Rules.name(requested, .fontName)
            guard let existing = state.font(named: name) else { throw .fontNotFound(name) }
            if !force, !facts.episodesUsing.isEmpty { throw .fontInUse(existing.name, by: facts.episodesUsing) }
            return [.fontRemoved(FontRemoved(name: existing.name))]
                + facts.thumbnailsDrawnIn.map { .thumbnailFontRemoved(ThumbnailFontRemoved(episodeID: $0, fontName: existing.name)) }
        }
    }

    /// The state after `event`. Events of other streams leave it as it is.
    public static func evolve(_ state: FontLibraryState, _ event: DomainEvent) -> FontLibraryState {
        var state = state
        switch event {
        case .fontImported(let e): state.set(ImportedFont(name: e.name, font: e.font), for: e.name)
        case .fontRemoved(let e): state.set(nil, for: e.name)
        default: break
        }
        return state
    }
}
