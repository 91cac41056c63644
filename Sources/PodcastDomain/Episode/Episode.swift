import CoreValues

/// An episode: light fields, thumbnail settings, and references to its heavy content.
public struct Episode: Hashable, Sendable, Codable {
    public var id: EpisodeID
    public var podcastID: PodcastID
    public var title: String
    /// 1 to 2,147,483,647, unique among the podcast's live episodes.
    public var number: Int
    public var description: String?
    public var publishDate: Timestamp?
    public var createdAt: Timestamp
    public var thumbnailSettings: ThumbnailSettings
    /// What the thumbnail says.
    public var thumbnailText: ThumbnailText
    public var transcript: BlobRef?
    /// The transcript's small defects, as found when it was imported.
    public var transcriptWarnings: [TranscriptWarning] = []
    public var subtitles: SubtitlesRef?
    public var background: ImageRef?
    public var overlay: ImageRef?
    public var thumbnail: RenderedThumbnail?

    public init(
        id: EpisodeID, podcastID: PodcastID, title: String, number: Int, description: String? = nil,
        publishDate: Timestamp? = nil, createdAt: Timestamp, thumbnailSettings: ThumbnailSettings = .defaults,
        thumbnailText: ThumbnailText = .episodeNumber, transcript: BlobRef? = nil, subtitles: SubtitlesRef? = nil,
        background: ImageRef? = nil, overlay: ImageRef? = nil, thumbnail: RenderedThumbnail? = nil
    ) {
        self.id = id
        self.podcastID = podcastID
        self.title = title
        self.number = number
        self.description = description
        self.publishDate = publishDate
        self.createdAt = createdAt
        self.thumbnailSettings = thumbnailSettings
        self.thumbnailText = thumbnailText
        self.transcript = transcript
        self.subtitles = subtitles
        self.background = background
        self.overlay = overlay
        self.thumbnail = thumbnail
    }

    /// The text the thumbnail shows.
    public var effectiveThumbnailText: String { thumbnailText.words(title: title, number: number) }

    /// What a render would be drawn from now; nil without a background, which rendering needs.
    public var thumbnailInputs: ThumbnailInputs? {
        background.map {
            ThumbnailInputs(
                title: title, number: number, text: effectiveThumbnailText, settings: thumbnailSettings,
                background: $0, overlay: overlay)
        }
    }

    // The derived flags of lists: computed from the state, never stored beside it, so they cannot drift.

    public var hasTranscript: Bool { transcript != nil }
    public var hasSubtitles: Bool { subtitles != nil }
    /// Subtitles exist but were made from another transcript than the current one (or none is left).
    public var subtitlesOutdated: Bool { subtitles.map { $0.transcript != transcript } ?? false }
    public var hasThumbnail: Bool { thumbnail != nil }
    /// A thumbnail exists but its inputs (title, number, text, settings, images) have changed since, or
    /// the font it was drawn in has been removed.
    public var thumbnailOutdated: Bool { thumbnail.map { $0.inputs != thumbnailInputs || $0.fontRemoved } ?? false }
}
