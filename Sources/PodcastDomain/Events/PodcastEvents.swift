import CoreValues

// The facts of a podcast's stream, one each, named in the past tense.

/// Version 2; version 1's thumbnail settings had no text fit or overlay placement (see ``Upcasting``).
public struct PodcastCreated: PodcastEventPayload {
    public static let schemaVersion = 2
    public var podcastID: PodcastID
    public var name: String
    public var description: String?
    public var createdAt: Timestamp
    public var thumbnailDefaults: ThumbnailSettings
}

public struct PodcastRenamed: PodcastEventPayload {
    public var podcastID: PodcastID
    public var name: String
}

/// The description was set, changed or (nil) removed.
public struct PodcastDescribed: PodcastEventPayload {
    public var podcastID: PodcastID
    public var description: String?
}

public struct PodcastArtworkSet: PodcastEventPayload {
    public var podcastID: PodcastID
    public var artwork: ImageRef
    public var blobs: [BlobRef] { artwork.blobs }
}

public struct PodcastArtworkCleared: PodcastEventPayload {
    public var podcastID: PodcastID
}

public struct PodcastDefaultOverlaySet: PodcastEventPayload {
    public var podcastID: PodcastID
    public var overlay: ImageRef
    public var blobs: [BlobRef] { overlay.blobs }
}

public struct PodcastDefaultOverlayCleared: PodcastEventPayload {
    public var podcastID: PodcastID
}

public struct PodcastDefaultBackgroundSet: PodcastEventPayload {
    public var podcastID: PodcastID
    public var background: ImageRef
    public var blobs: [BlobRef] { background.blobs }
}

public struct PodcastDefaultBackgroundCleared: PodcastEventPayload {
    public var podcastID: PodcastID
}

/// Version 2; version 1's thumbnail settings had no text fit or overlay placement (see ``Upcasting``).
public struct PodcastThumbnailDefaultsChanged: PodcastEventPayload {
    public static let schemaVersion = 2
    public var podcastID: PodcastID
    public var thumbnailDefaults: ThumbnailSettings
}

/// What new episodes' thumbnails say changed; episodes that exist keep their own.
public struct PodcastDefaultTextChanged: PodcastEventPayload {
    public var podcastID: PodcastID
    public var text: ThumbnailText
}

/// Deleting a podcast deletes its episodes in the same commit (one `EpisodeDeleted` each).
public struct PodcastDeleted: PodcastEventPayload {
    public var podcastID: PodcastID
}

/// A deleted podcast came back, as it was: the undo of ``PodcastDeleted``.
///
/// Version 4; version 1's thumbnail settings had no text fit or overlay placement, version 2's
/// podcast no default background, and version 3's no default thumbnail text (see ``Upcasting``).
public struct PodcastRestored: PodcastEventPayload {
    public static let schemaVersion = 4
    public var podcast: Podcast
    public var podcastID: PodcastID { podcast.id }
    public var blobs: [BlobRef] { podcast.artwork.blobs + podcast.defaultOverlay.blobs + podcast.defaultBackground.blobs }
}
