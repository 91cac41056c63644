import CoreValues
import PodcastDomain

/// The states of a fold's entities, split by entity into shards that decode and fold side by side.
///
/// An entity's events must be folded in log order, but two entities share nothing: each entity
/// belongs to one shard, each shard takes its entities' events in log order, and the shards of a
/// round run on every core. Decoding, the costliest step of a fold, is done by the shard that folds
/// the event, so every core decodes and folds.
struct FoldShards: Sendable {
    /// More shards than a machine has cores keeps the cores evenly loaded; a shard is two dictionaries.
    static let count = 8

    /// One entity's state, and the time of its latest event.
    typealias Change<State: Sendable> = EntityChanges.Change<State>

    /// Touched by one thread at a time: by its worker during a round, else by the fold's owner.
    private final class Shard: @unchecked Sendable {
        var podcasts: [PodcastID: Change<PodcastState>] = [:]
        var episodes: [EpisodeID: Change<EpisodeState>] = [:]

        /// Folds this shard's events in order, each into its entity's state; stops at the first event
        /// that cannot be decoded.
        func fold(_ events: [RawEvent]) throws(ProjectionError) {
            for raw in events {
                let event = try raw.decode()
                switch raw.subject {
                case .podcast(let id): podcasts[id]!.fold(event, at: raw.time, PodcastDecider.evolve)
                case .episode(let id): episodes[id]!.fold(event, at: raw.time, EpisodeDecider.evolve)
                }
            }
        }
    }

    private let shards = (0..<Self.count).map { _ in Shard() }

    private static func shard<Kind>(of id: Identifier<Kind>) -> Int {
        Int(UInt(bitPattern: id.hashValue) % UInt(count))
    }

    private static func shard(of subject: FoldPlan.Subject) -> Int {
        switch subject {
        case .podcast(let id): shard(of: id)
        case .episode(let id): shard(of: id)
        }
    }

    subscript(podcast id: PodcastID) -> Change<PodcastState>? {
        get { shards[Self.shard(of: id)].podcasts[id] }
        nonmutating set { shards[Self.shard(of: id)].podcasts[id] = newValue }
    }

    subscript(episode id: EpisodeID) -> Change<EpisodeState>? {
        get { shards[Self.shard(of: id)].episodes[id] }
        nonmutating set { shards[Self.shard(of: id)].episodes[id] = newValue }
    }

    var podcastCount: Int { shards.reduce(0) { $0 + $1.podcasts.count } }
    var episodeCount: Int { shards.reduce(0) { $0 + $1.episodes.count } }

    /// Hands over every state held, in one dictionary each, and empties the shards: a shard's states
    /// are freed as soon as they are merged, so the hand-over does not double the memory they take.
    func removeAll() -> (podcasts: [PodcastID: Change<PodcastState>], episodes: [EpisodeID: Change<EpisodeState>]) {
        var podcasts: [PodcastID: Change<PodcastState>] = [:], episodes: [EpisodeID: Change<EpisodeState>] = [:]
        podcasts.reserveCapacity(podcastCount)
        episodes.reserveCapacity(episodeCount)
        for shard in shards {
            podcasts.merge(shard.podcasts) { kept, _ in kept }
            shard.podcasts = [:]
            episodes.merge(shard.episodes) { kept, _ in kept }
            shard.episodes = [:]
        }
        return (podcasts, episodes)
    }

    /// A round of events: consecutive runs of the log, each split by shard, each part in log order.
    struct Round: Sendable {
        /// `parts[run][shard]`.
        fileprivate var parts: [[[RawEvent]]] = []
        private(set) var count = 0

        init() {}

        /// `runs` are consecutive, each split by ``split(_:)``.
        init(_ runs: [[[RawEvent]]]) {
            parts = runs
            count = runs.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
        }

        /// A run's events by shard, each part in log order: done by whoever copied the run.
        static func split(_ events: [RawEvent]) -> [[RawEvent]] {
            var parts = Array(repeating: [RawEvent](), count: FoldShards.count)
            for event in events { parts[FoldShards.shard(of: event.subject)].append(event) }
            return parts
        }
    }

    /// Decodes the events of `round` that belong to `shard` and folds each into its entity's state,
    /// which must exist. Shards share nothing, so every shard of a round can be folded at once.
    func fold(_ round: Round, shard: Int) throws(ProjectionError) {
        for run in round.parts { try shards[shard].fold(run[shard]) }
    }

    /// The earliest event of `round` that cannot be decoded, of the `failures` its shards met.
    static func earliest(_ failures: [any Error]) -> (any Error)? {
        failures.min { first, second in
            guard case .unreadableEvent(let a, _)? = first as? ProjectionError else { return false }
            guard case .unreadableEvent(let b, _)? = second as? ProjectionError else { return true }
            return a < b
        }
    }
}

extension EntityChanges.Change {
    fileprivate mutating func fold(_ event: DomainEvent, at time: Timestamp, _ evolve: (State, DomainEvent) -> State) {
        state = evolve(state, event)
        updatedAt = time
    }
}
