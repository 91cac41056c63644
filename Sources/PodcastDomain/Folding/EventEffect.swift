/// What an event does to the state of its entity, known from its type alone, before its payload is
/// read: what lets a fold skip the events that later ones overwrite (see ``NeededEvents``).
///
/// ``PodcastDecider/effects`` and ``EpisodeDecider/effects`` give each type's effect beside `evolve`,
/// which they describe; a type they do not list (a deletion) is never skipped, and tests check that
/// folding only the needed events gives what folding all of them gives. `Field` names the fields of
/// the entity: ``Podcast/Field`` or ``Episode/Field``.
public enum EventEffect<Field: Hashable & Sendable>: Hashable, Sendable {
    /// Makes the state anew, whatever it was before: a creation, a restore.
    case replacesState
    /// Sets one field of a live entity to a value that the event alone decides, and nothing else.
    case sets(Field)

    /// True when the effect sets `field`. Inlinable, as ``NeededEvents`` asks it for every event of a replay.
    @inlinable
    public func sets(_ field: Field) -> Bool {
        if case .sets(let own) = self { return own == field }
        return false
    }
}

extension Podcast {
    /// The fields that events set one at a time.
    public enum Field: Hashable, Sendable {
        case name, description, artwork, defaultOverlay, defaultBackground, thumbnailDefaults, defaultThumbnailText
    }
}

extension Episode {
    /// The fields that events set one at a time.
    public enum Field: Hashable, Sendable {
        case title, number, description, publishDate, transcript, subtitles, background, overlay, thumbnailSettings
        case thumbnailText, thumbnail
    }
}
