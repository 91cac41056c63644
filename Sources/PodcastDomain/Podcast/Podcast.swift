import CoreValues

/// A show: its light fields, and references to its images. Heavy content lives in the blob store.
public struct Podcast: Hashable, Sendable, Codable {
    public var id: PodcastID
    public var name: String
    public var description: String?
    public var createdAt: Timestamp
    public var artwork: ImageRef?
    /// Copied into each new episode as its overlay.
    public var defaultOverlay: ImageRef?
    /// Copied into each new episode as its thumbnail settings.
    public var thumbnailDefaults: ThumbnailSettings

    public init(
        id: PodcastID, name: String, description: String? = nil, createdAt: Timestamp, artwork: ImageRef? = nil,
        defaultOverlay: ImageRef? = nil, thumbnailDefaults: ThumbnailSettings = .defaults
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.createdAt = createdAt
        self.artwork = artwork
        self.defaultOverlay = defaultOverlay
        self.thumbnailDefaults = thumbnailDefaults
    }
}

/// A podcast stream folded: never created, live, or deleted (kept whole, so that undo can restore it).
public enum PodcastState: Hashable, Sendable {
    case initial
    case active(Podcast)
    case deleted(Podcast)

    /// The podcast, if it exists and is not deleted.
    public var live: Podcast? {
        if case .active(let podcast) = self { return podcast }
        return nil
    }

    /// The podcast, or the refusal a command on a missing or deleted podcast gets.
    func requireLive() throws(DomainError) -> Podcast {
        switch self {
        case .initial: throw .podcastNotFound
        case .deleted(let podcast): throw .podcastDeleted(podcast.id)
        case .active(let podcast): return podcast
        }
    }
}
