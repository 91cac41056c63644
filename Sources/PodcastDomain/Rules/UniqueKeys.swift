/// The keys that rules spanning entities keep unique, and how each event changes what its stream holds:
/// a live podcast holds its name (ignoring case and surrounding spaces), a live episode its number
/// within its podcast. A store with writers on several machines holds them for the whole team, so that
/// two machines deciding at once cannot both take one name.
public enum UniqueKeys {
    public enum Kind: String, Sendable, CaseIterable {
        case podcastName = "podcast-name"
        case episodeNumber = "episode-number"
    }

    /// What an event does to the keys its own stream holds.
    public enum Change: Equatable, Sendable {
        /// Holds `key` within `scope` (a podcast's stream for episode numbers; empty for names), in place
        /// of the key of this kind it held.
        case hold(Kind, scope: String, key: String)
        /// Holds `key` instead, within the scope it already has.
        case rekey(Kind, key: String)
        /// Holds no key of this kind any more.
        case release(Kind)
    }

    /// The changes `event` makes, in order; none for most events.
    public static func changes(for event: DomainEvent) -> [Change] {
        switch event {
        case .podcastCreated(let e): [.hold(.podcastName, scope: "", key: Rules.nameKey(e.name))]
        case .podcastRenamed(let e): [.hold(.podcastName, scope: "", key: Rules.nameKey(e.name))]
        case .podcastRestored(let e): [.hold(.podcastName, scope: "", key: Rules.nameKey(e.podcast.name))]
        case .podcastDeleted: [.release(.podcastName)]
        case .episodeCreated(let e): [.hold(.episodeNumber, scope: e.podcastID.streamName, key: String(e.number))]
        case .episodeRenumbered(let e): [.rekey(.episodeNumber, key: String(e.number))]
        case .episodeRestored(let e): [.hold(.episodeNumber, scope: e.episode.podcastID.streamName, key: String(e.episode.number))]
        case .episodeDeleted: [.release(.episodeNumber)]
        default: []
        }
    }
}
