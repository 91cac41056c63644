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
    /// Copied into each new episode as its background; without it, the artwork is.
    public var defaultBackground: ImageRef?
    /// Copied into each new episode as its thumbnail settings.
    public var thumbnailDefaults: ThumbnailSettings
    /// Copied into each new episode as what its thumbnail says.
    public var defaultThumbnailText: ThumbnailText

    public init(
        id: PodcastID, name: String, description: String? = nil, createdAt: Timestamp, artwork: ImageRef? = nil,
        defaultOverlay: ImageRef? = nil, defaultBackground: ImageRef? = nil, thumbnailDefaults: ThumbnailSettings = .defaults,
        defaultThumbnailText: ThumbnailText = .episodeNumber
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.createdAt = createdAt
        self.artwork = artwork
        self.defaultOverlay = defaultOverlay
        self.defaultBackground = defaultBackground
        self.thumbnailDefaults = thumbnailDefaults
        self.defaultThumbnailText = defaultThumbnailText
    }
}
