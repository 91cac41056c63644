import CoreValues
import EventLog
import PodcastDomain

/// One command for the library: what it is about, the domain command, and any content it brings.
public struct Submission: Sendable {
    public enum Action: Sendable {
        case podcast(PodcastReference, PodcastCommand)
        case episode(EpisodeReference, EpisodeCommand)
        /// An `EpisodeCommand.create` in the podcast named.
        case createEpisode(in: PodcastReference, EpisodeCommand)
        /// Converts the episode's transcript, as the batch has left it, to subtitles (the SRT becomes a
        /// blob) and records them; with `strict`, a transcript with defects is refused. The conversion
        /// is made outside the writer lock.
        case convertTranscript(EpisodeReference, strict: Bool = false)
        /// Changes some of a podcast's thumbnail defaults, keeping the others as they are when it runs.
        case patchThumbnailDefaults(PodcastReference, ThumbnailSettingsPatch)
        /// Changes some of an episode's thumbnail settings, keeping the others as they are when it runs.
        case patchThumbnailSettings(EpisodeReference, ThumbnailSettingsPatch)
        /// Renders the episode's thumbnail from its inputs as the batch has left them, and records it: a
        /// script's `thumbnail.render`. It is drawn outside the writer lock, as every conversion is.
        case renderThumbnail(EpisodeReference)
        /// Imports or removes one of the library's fonts (see ``importFont(_:name:)``).
        case font(FontCommand)
    }

    public var action: Action
    /// Content the command refers to by reference (a transcript, subtitles, an image). It is written to
    /// the blob store only once the command is accepted, just before its events.
    public var blobs: [[UInt8]]

    public init(_ action: Action, blobs: [[UInt8]] = []) {
        self.action = action
        self.blobs = blobs
    }

    /// Imports `bytes` as the episode's transcript; with `strict`, a transcript with defects is refused.
    public static func importTranscript(_ bytes: [UInt8], into episode: EpisodeReference, strict: Bool = false) -> Submission {
        Submission(
            .episode(episode, .importTranscript(bytes: bytes, ref: BlobStore.reference(for: bytes), strict: strict)),
            blobs: [bytes])
    }

    /// The same command, a creation made at `time` instead: for a script, whose commands each run at
    /// their own time, so that what one creates is newer than what an earlier line created.
    func created(at time: Timestamp) -> Submission {
        var stamped = self
        switch action {
        case .podcast(let reference, .create(let id, let name, let description, _)):
            stamped.action = .podcast(reference, .create(id: id, name: name, description: description, at: time))
        case .createEpisode(let podcast, .create(let id, let title, let number, let description, let publishDate, _)):
            stamped.action = .createEpisode(
                in: podcast, .create(id: id, title: title, number: number, description: description, publishDate: publishDate, at: time))
        default:
            break
        }
        return stamped
    }

    /// The command's name, as `episodic submit` takes it: `podcast.create`, `transcript.import`, ...
    public var name: String {
        switch action {
        case .podcast(_, let command): command.name
        case .episode(_, let command), .createEpisode(_, let command): command.name
        case .convertTranscript: "transcript.convert"
        case .patchThumbnailDefaults: "podcast.defaults"
        case .patchThumbnailSettings: "thumbnail.settings"
        case .renderThumbnail: "thumbnail.render"
        case .font(let command): command.name
        }
    }
}

/// What an accepted command did.
public struct SubmitOutcome: Sendable {
    /// The command's name, as in ``Submission/name``.
    public var name: String
    /// The id recorded with the command's events; for an atomic batch, the batch's.
    public var commandID: CommandID
    /// The events appended, in order; none when the command changed nothing.
    public var events: [DomainEvent]
    /// Where they were appended; nil when there were none.
    public var positions: ClosedRange<LogPosition>?
    /// The id of what the command created, if it created something.
    public var created: Created?
    /// What a transcript import or conversion read past (`TranscriptWarning`); empty otherwise.
    public var warnings: [TranscriptWarning] = []
    /// What would make a thumbnail poor, said when its input is given or it is drawn (`ThumbnailWarning`).
    public var thumbnailWarnings: [ThumbnailWarning] = []
    /// What the command changed, field by field, for telling people in words (``HistoryEntry/sentence``).
    public var changes: [HistoryEntry.Change] = []

    public enum Created: Sendable, Equatable, CustomStringConvertible {
        case podcast(PodcastID)
        case episode(EpisodeID)

        public var description: String {
            switch self {
            case .podcast(let id): id.description
            case .episode(let id): id.description
            }
        }
    }
}

/// A command of a batch that was refused, and where it stood in the batch (from 0).
public struct SubmitFailure: Error, Sendable, CustomStringConvertible {
    public var index: Int
    public var name: String
    public var error: any Error

    package init(index: Int, name: String, error: any Error) {
        self.index = index
        self.name = name
        self.error = error
    }

    public var description: String { "\(error)" }
}

extension SubmitFailure: ClassifiedError {
    /// The kind of the error that stopped the command.
    public var kind: ErrorKind { ErrorKind(of: error) }
}
