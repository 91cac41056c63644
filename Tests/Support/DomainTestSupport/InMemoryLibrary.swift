import CoreValues

import PodcastDomain

/// The shell's job, in memory: keeps every stream's state, gathers the facts a command needs,
/// runs the decider and folds the events it returns into the streams they belong to.
public struct InMemoryLibrary {
    public enum Command: CustomStringConvertible, Sendable {
        case podcast(PodcastID, PodcastCommand)
        /// `podcast` is where a create goes; other commands find the episode's podcast themselves.
        case episode(EpisodeID, podcast: PodcastID, EpisodeCommand)

        public var description: String {
            switch self {
            case let .podcast(id, command): "podcast \(id.description.suffix(2)) \(command)"
            case let .episode(id, podcast, command): "episode \(id.description.suffix(2)) in \(podcast.description.suffix(2)) \(command)"
            }
        }
    }

    public private(set) var state = LibraryState()
    public var podcasts: [PodcastID: PodcastState] { state.podcasts }
    public var episodes: [EpisodeID: EpisodeState] { state.episodes }

    public init() {}

    public var livePodcasts: [Podcast] { podcasts.values.compactMap(\.live) }
    public var liveEpisodes: [Episode] { episodes.values.compactMap(\.live) }

    /// Runs one command: its events are applied, or the library stays as it was.
    public mutating func run(_ command: Command) -> Result<[DomainEvent], DomainError> {
        let result = Result { () throws(DomainError) in try decide(command) }
        if case .success(let events) = result { events.forEach { state.evolve($0) } }
        return result
    }

    private func decide(_ command: Command) throws(DomainError) -> [DomainEvent] {
        switch command {
        case let .podcast(id, command):
            let facts = PodcastFacts(
                otherPodcastNames: Dictionary(uniqueKeysWithValues: livePodcasts.filter { $0.id != id }.map { ($0.id, $0.name) }),
                liveEpisodes: liveEpisodes.filter { $0.podcastID == id }.map(\.id))
            return try PodcastDecider.decide(command, state.podcast(id), facts)
        case let .episode(id, target, command):
            let episode = state.episode(id)
            let podcastID = episode.existing?.podcastID ?? target
            let numbers = liveEpisodes.filter { $0.podcastID == podcastID && $0.id != id }.map { ($0.number, $0.id) }
            let facts = EpisodeFacts(podcast: state.podcast(podcastID), otherNumbers: Dictionary(numbers, uniquingKeysWith: { first, _ in first }))
            return try EpisodeDecider.decide(command, episode, facts)
        }
    }
}
