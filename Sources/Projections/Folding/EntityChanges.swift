import CoreValues
import PodcastDomain

/// The final state of every podcast and episode a run of events touched, with the time of the last
/// event of each: what projectors turn into rows.
public struct EntityChanges: Sendable {
    public struct Change<State: Sendable>: Sendable {
        public var state: State
        /// The time of the entity's latest event.
        public var updatedAt: Timestamp
    }

    public var podcasts: [PodcastID: Change<PodcastState>] = [:]
    public var episodes: [EpisodeID: Change<EpisodeState>] = [:]

    public var isEmpty: Bool { podcasts.isEmpty && episodes.isEmpty }
}
