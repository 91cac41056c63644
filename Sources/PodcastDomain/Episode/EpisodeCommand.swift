import CoreValues

/// What a user can ask of an episode. Ids and times come in with the command: the domain makes none.
///
/// Heavy content is written to the blob store by the shell first; commands carry its reference, and
/// the transcript's bytes too, so that the rules can check them.
public enum EpisodeCommand: Hashable, Sendable {
    /// `number` nil takes the podcast's highest number + 1. The podcast's thumbnail defaults and default
    /// overlay are copied into the episode.
    case create(id: EpisodeID, title: String, number: Int? = nil, description: String? = nil, publishDate: Timestamp? = nil, at: Timestamp)
    case retitle(String)
    case renumber(Int)
    /// nil or blank removes the description.
    case describe(String?)
    /// nil removes the publish date.
    case setPublishDate(Timestamp?)
    case delete

    /// Imports a transcript, or replaces the one the episode has.
    case importTranscript(bytes: [UInt8], ref: BlobRef, strict: Bool = false)
    case clearTranscript
    /// Records the SRT the shell made from the episode's current transcript.
    case recordSubtitles(SubtitlesRef)

    case setBackground(ImageRef)
    case setOverlay(ImageRef)
    case clearOverlay
    case changeThumbnailSettings(ThumbnailSettings)
    /// Custom text that is blank returns to the default, `EP <number>`.
    case changeThumbnailText(ThumbnailText)
    /// Records a thumbnail the shell rendered from the episode's current inputs.
    case recordThumbnail(RenderedThumbnail)
}

/// What an episode command needs to know beyond the episode's own stream.
public struct EpisodeFacts: Hashable, Sendable {
    /// The episode's podcast (for a create: the podcast to create it in).
    public var podcast: PodcastState
    /// The numbers of the podcast's other live episodes: numbers are unique within a podcast.
    public var otherNumbers: [Int: EpisodeID]
    /// For a transcript import, the check of its transcript if made ahead; the decider checks it
    /// itself otherwise, or when this one is of other content or strictness.
    public var transcriptCheck: TranscriptCheck?

    public init(podcast: PodcastState, otherNumbers: [Int: EpisodeID] = [:], transcriptCheck: TranscriptCheck? = nil) {
        self.podcast = podcast
        self.otherNumbers = otherNumbers
        self.transcriptCheck = transcriptCheck
    }
}
