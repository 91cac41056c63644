import EventLog
import PodcastDomain

/// What the library refuses beyond the domain's own rules. Each message says what is wrong; a front end
/// adds how to look up what to write instead.
public enum LibraryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No podcast answers to the reference; `didYouMean` is a live podcast's name a typo away.
    case podcastNotFound(String, didYouMean: String? = nil)
    /// No episode answers to the reference. `didYouMean`: a reference that would (`Show/3` for
    /// `Show 3`); `podcast`: the podcast a `<podcast>/<number>` named, which has no such number.
    case episodeNotFound(String, didYouMean: String? = nil, podcast: PodcastNumbers? = nil)
    /// No podcast or episode answers to an id prefix, where either would do.
    case nothingAnswers(String)
    /// No command in the log has this id, or an id starting with it.
    case commandNotFound(String)
    /// A reference that more than one podcast or episode answers to.
    case ambiguous(String, candidates: [String])
    case transcriptUnreadable(episode: EpisodeID, reason: String)
    case noSubtitles(EpisodeID)
    /// Subtitles made by an earlier version of Episodic, whose speakers cannot be exported as data.
    case subtitlesFromEarlierVersion(EpisodeID)
    case invalidTime(String)
    /// A publish date that is neither a date nor words looking ahead.
    case invalidPublishDate(String)
    /// A blob the library should hold cannot be read.
    case blobUnreadable(EventLogError)
    /// The folder is already the side of a shared library (it has a `SHARED` file).
    case alreadyShared(path: String)
    /// A new shared library, or a clone, needs a folder without events; this one has some.
    case libraryHasEvents(path: String, events: UInt64)
    /// A shared library's copy does not accept a loss: its log is the server's.
    case sharedLossNotAccepted
    /// A command's input (a transcript to convert, a thumbnail's inputs) was changed by other writers
    /// each time the work on it was made outside the writer lock; the command was not run.
    case inputKeptChanging(String)

    public var description: String {
        switch self {
        case let .podcastNotFound(reference, didYouMean):
            "no podcast answers to \"\(reference)\"." + (didYouMean.map { " Did you mean \"\($0)\"?" } ?? "")
                + " Name it by its id, a unique prefix of its id, or its name."
        case let .episodeNotFound(reference, didYouMean, podcast?):
            "no episode answers to \"\(reference)\": \(podcast)."
                + (didYouMean.map { " Did you mean \"\($0)\"?" } ?? "")
        case let .episodeNotFound(reference, didYouMean, nil):
            "no episode answers to \"\(reference)\"." + (didYouMean.map { " Did you mean \"\($0)\"?" } ?? "")
                + " Name it by its id, a unique prefix of its id, or <podcast>/<number>."
        case .commandNotFound(let reference):
            CommandID(reference) != nil
                ? "no command \(reference) in the log." : "no command in the log has an id starting with \"\(reference)\"."
        case .nothingAnswers(let reference):
            "no podcast or episode has an id starting with \"\(reference)\"."
        case let .ambiguous(reference, candidates):
            "\"\(reference)\" could mean any of: \(candidates.joined(separator: "; ")). Give more of the id."
        case let .transcriptUnreadable(episode, reason):
            "the transcript of episode \(episode) cannot be converted: \(reason)"
        case .noSubtitles(let episode):
            "episode \(episode) has no subtitles yet."
        case .subtitlesFromEarlierVersion(let episode):
            "the subtitles of episode \(episode) were made by an earlier version of Episodic, which kept no speakers "
                + "for WebVTT or JSON. Convert the transcript again to make them anew, then export."
        case .invalidTime(let text):
            "\"\(text)\" is not a date or time. Write it as 2026-11-21 or 2026-11-21T18:30:00Z (UTC), or as now, today, "
                + "yesterday, a weekday (monday, last friday) or \"3 days ago\" (seconds to weeks)."
        case .invalidPublishDate(let text):
            "\"\(text)\" is not a publish date. Write it as 2026-11-21 or 2026-11-21T18:30:00Z (UTC), or looking ahead as "
                + "today, tomorrow, a weekday (friday, next friday: the coming one) or \"in 2 weeks\" (minutes to months)."
        case .blobUnreadable(let error):
            error.description
        case .alreadyShared(let path):
            "the library at \(path) is already the side of a shared library (its SHARED file says where); nothing was changed."
        case let .libraryHasEvents(path, events):
            "the library at \(path) already holds \(events) event\(events == 1 ? "" : "s"); nothing was changed. "
                + "Push it to a server instead, or choose an empty folder."
        case .sharedLossNotAccepted:
            "a shared library's log is the one on its server, and this machine's copy cannot give up commits on its own. "
                + "Clone the library again into a new folder."
        case .inputKeptChanging(let command):
            "\(command): other commands changed what it works on (a transcript, a thumbnail's inputs) each of the "
                + "\(Library.inputWorkAttempts) times it was made ready for them; it was not run. Try again."
        }
    }
}

extension LibraryError: ClassifiedError {
    public var kind: ErrorKind {
        switch self {
        case .podcastNotFound, .episodeNotFound, .nothingAnswers, .commandNotFound, .ambiguous, .transcriptUnreadable, .noSubtitles, .subtitlesFromEarlierVersion, .invalidPublishDate,
            .invalidTime, .alreadyShared,
            .libraryHasEvents, .sharedLossNotAccepted: .refused
        // Not the command's fault: the blob store is not what was written (or the system said no).
        case .blobUnreadable(let error): error.kind
        case .inputKeptChanging: .busy
        }
    }
}

/// A podcast's episode numbers, as far as a refusal needs them: its name, and its highest number
/// (nil: it has no episodes).
public struct PodcastNumbers: Equatable, Sendable, CustomStringConvertible {
    public var name: String
    public var highest: Int?

    public var description: String {
        guard let highest else { return "\"\(name)\" has no episodes yet" }
        return highest == 1 ? "\"\(name)\" has only episode 1" : "\"\(name)\" has episodes numbered up to \(highest)"
    }
}
