import CoreValues
import EventLog
import Foundation
import PodcastDomain

/// Folds events into the states of the entities they touch, with the domain's own `evolve`, so that a
/// read model's flags are computed exactly as the domain computes them.
///
/// States stay in memory across batches (a few hundred bytes per entity), so a replay of the whole log
/// folds each entity once and writes its row once per batch it appears in. An entity met for the first
/// time starts from its state as of the fold's start: `.initial` when the fold starts at the beginning
/// of the log, else the fold of its stream up to there, read through the stream index (cost in
/// proportion to that stream, not to the log).
struct EntityFold {
    private var podcasts: [PodcastID: EntityChanges.Change<PodcastState>] = [:]
    private var episodes: [EpisodeID: EntityChanges.Change<EpisodeState>] = [:]
    private var touchedPodcasts = Set<PodcastID>()
    private var touchedEpisodes = Set<EpisodeID>()
    private let log: EventLog
    /// The last position before the fold.
    private let base: LogPosition

    init(log: EventLog, after base: LogPosition) {
        self.log = log
        self.base = base
    }

    mutating func apply(_ event: DomainEvent, at time: Timestamp) throws {
        switch event.payload {
        case let payload as any PodcastEventPayload:
            let id = payload.podcastID
            let before = try podcasts[id]?.state ?? baseState(of: id.streamName, PodcastDecider.initial, PodcastDecider.evolve)
            podcasts[id] = .init(state: PodcastDecider.evolve(before, event), updatedAt: time)
            touchedPodcasts.insert(id)
        case let payload as any EpisodeEventPayload:
            let id = payload.episodeID
            let before = try episodes[id]?.state ?? baseState(of: id.streamName, EpisodeDecider.initial, EpisodeDecider.evolve)
            episodes[id] = .init(state: EpisodeDecider.evolve(before, event), updatedAt: time)
            touchedEpisodes.insert(id)
        default:
            break
        }
    }

    /// How many entities were touched since the last ``takeChanges()``.
    var touchedCount: Int { touchedPodcasts.count + touchedEpisodes.count }

    /// The entities touched since the last call, as they are now.
    mutating func takeChanges() -> EntityChanges {
        var changes = EntityChanges()
        for id in touchedPodcasts { changes.podcasts[id] = podcasts[id] }
        for id in touchedEpisodes { changes.episodes[id] = episodes[id] }
        touchedPodcasts.removeAll(keepingCapacity: true)
        touchedEpisodes.removeAll(keepingCapacity: true)
        return changes
    }

    private func baseState<State>(of stream: String, _ initial: State, _ evolve: (State, DomainEvent) -> State) throws -> State {
        guard base > .none, let id = StreamID(rawValue: stream) else { return initial }
        var state = initial
        try log.read(stream: id) { envelope in
            guard envelope.position <= base else { return }
            state = evolve(state, try DomainEvents.decode(envelope))
        }
        return state
    }
}
