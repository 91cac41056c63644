import CoreValues

// The facts of an episode's stream, one each, named in the past tense.

/// Version 5; version 1 had no `publishDate`, version 2's thumbnail settings no text fit or overlay
/// placement, version 3 no background, version 4 no thumbnail text (see ``Upcasting``).
public struct EpisodeCreated: EpisodeEventPayload {
    public static let schemaVersion = 5
    public var episodeID: EpisodeID
    public var podcastID: PodcastID
    public var title: String
    public var number: Int
    public var description: String?
    public var publishDate: Timestamp?
    public var createdAt: Timestamp
    /// Copied from the podcast's defaults at creation.
    public var thumbnailSettings: ThumbnailSettings
    /// Copied from the podcast's default overlay at creation.
    public var overlay: ImageRef?
    /// Copied from the podcast's default background at creation, else from its artwork (version 4; none before).
    public var background: ImageRef?
    /// Copied from the podcast's default at creation (version 5; before, always the number).
    public var thumbnailText: ThumbnailText = .episodeNumber
    public var blobs: [BlobRef] { overlay.blobs + background.blobs }
}

public struct EpisodeRetitled: EpisodeEventPayload {
    public var episodeID: EpisodeID
    public var title: String
}

public struct EpisodeRenumbered: EpisodeEventPayload {
    public var episodeID: EpisodeID
    public var number: Int
}

/// The description was set, changed or (nil) removed.
public struct EpisodeDescribed: EpisodeEventPayload {
    public var episodeID: EpisodeID
    public var description: String?
}

/// The publish date was set, changed or (nil) removed.
public struct EpisodePublishDateChanged: EpisodeEventPayload {
    public var episodeID: EpisodeID
    public var publishDate: Timestamp?
}

public struct EpisodeDeleted: EpisodeEventPayload {
    public var episodeID: EpisodeID
}

/// A deleted episode came back, with its content: the undo of ``EpisodeDeleted``.
///
/// Version 4; version 1's episode had no `transcriptWarnings`, version 2's thumbnail settings no text fit
/// or overlay placement, and its thumbnail no drawn size, and version 3's thumbnail text was a string or
/// null (see ``Upcasting``).
public struct EpisodeRestored: EpisodeEventPayload {
    public static let schemaVersion = 4
    public var episode: Episode
    public var episodeID: EpisodeID { episode.id }
    public var blobs: [BlobRef] {
        [episode.transcript, episode.subtitles?.blob, episode.background?.blob, episode.overlay?.blob,
         episode.thumbnail?.image.blob].compactMap { $0 }
    }
}

/// A transcript was imported into an episode that had none.
///
/// Version 2; version 1 had no `warnings` (see ``Upcasting``): transcripts were not read at import.
public struct TranscriptImported: EpisodeEventPayload {
    public static let schemaVersion = 2
    public var episodeID: EpisodeID
    public var transcript: BlobRef
    /// The small defects the conversion reads past, found when it was imported; empty for a clean one.
    public var warnings: [TranscriptWarning]
    public var blobs: [BlobRef] { [transcript] }
}

/// A transcript took the place of the one the episode had.
///
/// Version 2; version 1 had no `warnings` (see ``Upcasting``).
public struct TranscriptReplaced: EpisodeEventPayload {
    public static let schemaVersion = 2
    public var episodeID: EpisodeID
    public var transcript: BlobRef
    public var warnings: [TranscriptWarning]
    public var blobs: [BlobRef] { [transcript] }
}

public struct TranscriptCleared: EpisodeEventPayload {
    public var episodeID: EpisodeID
}

/// SRT subtitles were made from the episode's transcript.
public struct SRTGenerated: EpisodeEventPayload {
    public var episodeID: EpisodeID
    public var subtitles: SubtitlesRef
    public var blobs: [BlobRef] { [subtitles.blob] }
}

/// The subtitles were removed: the undo of a first ``SRTGenerated``.
public struct SRTDiscarded: EpisodeEventPayload {
    public var episodeID: EpisodeID
}

public struct ThumbnailBackgroundSet: EpisodeEventPayload {
    public var episodeID: EpisodeID
    public var background: ImageRef
    public var blobs: [BlobRef] { background.blobs }
}

/// The background was removed: the undo of a first ``ThumbnailBackgroundSet``.
public struct ThumbnailBackgroundCleared: EpisodeEventPayload {
    public var episodeID: EpisodeID
}

public struct ThumbnailOverlaySet: EpisodeEventPayload {
    public var episodeID: EpisodeID
    public var overlay: ImageRef
    public var blobs: [BlobRef] { overlay.blobs }
}

public struct ThumbnailOverlayCleared: EpisodeEventPayload {
    public var episodeID: EpisodeID
}

/// Version 2; version 1's thumbnail settings had no text fit or overlay placement (see ``Upcasting``).
public struct ThumbnailSettingsChanged: EpisodeEventPayload {
    public static let schemaVersion = 2
    public var episodeID: EpisodeID
    public var settings: ThumbnailSettings
}

/// What the thumbnail says changed. Version 2; version 1's text was a string, or null for the number.
public struct ThumbnailTextChanged: EpisodeEventPayload {
    public static let schemaVersion = 2
    public var episodeID: EpisodeID
    public var text: ThumbnailText
}

/// Version 2; version 1's settings had no text fit or overlay placement, and it recorded no drawn size
/// (see ``Upcasting``).
public struct ThumbnailRendered: EpisodeEventPayload {
    public static let schemaVersion = 2
    public var episodeID: EpisodeID
    public var thumbnail: RenderedThumbnail
    public var blobs: [BlobRef] { [thumbnail.image.blob] }
}

/// The font the episode's thumbnail was drawn in was removed from the library (`font remove --force`),
/// so the thumbnail is outdated: drawn again, it could not look the same. Written in the font's removal
/// commit, one per episode whose current thumbnail was drawn in it.
public struct ThumbnailFontRemoved: EpisodeEventPayload {
    public var episodeID: EpisodeID
    /// The font's name, as imported.
    public var fontName: String
}

/// The rendered thumbnail was removed: the undo of a first ``ThumbnailRendered``.
public struct ThumbnailDiscarded: EpisodeEventPayload {
    public var episodeID: EpisodeID
}
