import PodcastDomain
import Projections

/// The episodes a piece of work done across podcasts takes (`thumbnail render --outdated`, `transcript
/// convert --outdated`), and those it passes over because they need other work first.
public struct BatchSelection: Sendable, Equatable {
    /// The episodes the work applies to, podcast by podcast (by name), each podcast's by number.
    public var episodes: [EpisodeTodo]
    /// The episodes that need the work but other work first: a background before a render, a
    /// transcript before subtitles. In the same order.
    public var blocked: [EpisodeTodo]
}

extension Library {
    /// The live episodes of `podcast` (of every podcast when nil) that `task` is the next work for: a
    /// thumbnail missing or out of date for ``EpisodeTask/renderThumbnail``, subtitles missing or made
    /// from an earlier transcript for ``EpisodeTask/convertTranscript``. From the read models' flags, as
    /// ``todo(in:publishingWithin:now:)`` finds them. Other tasks take no episode.
    public func batch(_ task: EpisodeTask, in podcast: PodcastID? = nil) throws -> BatchSelection {
        let blocker: EpisodeTask? = switch task {
        case .renderThumbnail: .setBackground
        case .convertTranscript: .importTranscript
        case .importTranscript, .setBackground: nil
        }
        guard let blocker else { return BatchSelection(episodes: [], blocked: []) }
        // In podcast and number order, whatever their publish dates.
        let todos = try todo(in: podcast, publishingWithin: 0, now: .now).sorted {
            ($0.podcastName.lowercased(), $0.episode.podcastID, $0.episode.number) < ($1.podcastName.lowercased(), $1.episode.podcastID, $1.episode.number)
        }
        return BatchSelection(
            episodes: todos.filter { $0.needs.contains { $0.task == task } },
            blocked: todos.filter { $0.needs.contains { $0.task == blocker } })
    }
}
