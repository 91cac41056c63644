/// What an event changes in its entity, so that undo can tell whether a later command changed the same
/// thing: undoing a retitle is safe after a transcript import, not after another retitle.
public enum EntityField: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Being created, deleted or restored: it conflicts with every other change of the entity.
    case existence
    case name, description, artwork, defaultOverlay, defaultBackground, thumbnailDefaults, defaultThumbnailText
    case title, number, publishDate, transcript, subtitles, background, overlay, thumbnailSettings, thumbnailText, thumbnail
    /// A font of the library's fonts stream, by name: see ``DomainEvent/overlaps(_:)``.
    case font
    /// What the log itself holds (``LogDecider``): never undone.
    case log

    public var description: String { rawValue }
}

extension DomainEvent {
    /// The fields of its entity the event sets.
    public var changedFields: Set<EntityField> {
        switch self {
        case .podcastCreated, .podcastDeleted, .podcastRestored, .episodeCreated, .episodeDeleted, .episodeRestored:
            [.existence]
        case .podcastRenamed: [.name]
        case .podcastDescribed, .episodeDescribed: [.description]
        case .podcastArtworkSet, .podcastArtworkCleared: [.artwork]
        case .podcastDefaultOverlaySet, .podcastDefaultOverlayCleared: [.defaultOverlay]
        case .podcastDefaultBackgroundSet, .podcastDefaultBackgroundCleared: [.defaultBackground]
        case .podcastThumbnailDefaultsChanged: [.thumbnailDefaults]
        case .podcastDefaultTextChanged: [.defaultThumbnailText]
        case .episodeRetitled: [.title]
        case .episodeRenumbered: [.number]
        case .episodePublishDateChanged: [.publishDate]
        case .transcriptImported, .transcriptReplaced, .transcriptCleared: [.transcript]
        case .srtGenerated, .srtDiscarded: [.subtitles]
        case .thumbnailBackgroundSet, .thumbnailBackgroundCleared: [.background]
        case .thumbnailOverlaySet, .thumbnailOverlayCleared: [.overlay]
        case .thumbnailSettingsChanged: [.thumbnailSettings]
        case .thumbnailTextChanged: [.thumbnailText]
        case .thumbnailRendered, .thumbnailDiscarded, .thumbnailFontRemoved: [.thumbnail]
        case .fontImported, .fontRemoved: [.font]
        case .lossAccepted: [.log]
        }
    }

    /// Whether undoing this event would overwrite what `later`, an event of the same entity, did.
    public func overlaps(_ later: DomainEvent) -> Bool {
        // One stream holds every font: two fonts' events overlap only when they are about the same name.
        if let mine = fontNameKey, let theirs = later.fontNameKey { return mine == theirs }
        let mine = changedFields, theirs = later.changedFields
        return mine.contains(.existence) || theirs.contains(.existence) || !mine.isDisjoint(with: theirs)
    }

    /// A podcast's or an episode's deletion.
    public var isDeletion: Bool {
        switch self {
        case .podcastDeleted, .episodeDeleted: true
        default: false
        }
    }
}

extension DomainEvent {
    /// The name a font event is about, as names are compared (ignoring case and surrounding spaces).
    fileprivate var fontNameKey: String? {
        (payload as? any FontEventPayload).map { Rules.nameKey($0.name) }
    }
}
