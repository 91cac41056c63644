import EventCodec
import EventLog
import PodcastDomain
import Projections

extension Library {
    /// The podcast as it stood at `bound`, and its episodes then live, in number order: the log folded
    /// up to that point (no read model is involved).
    public func podcast(_ id: PodcastID, asOf bound: LogBound) throws -> (podcast: PodcastState, episodes: [Episode]) {
        var filter = LogFilter()
        filter.podcast = id
        filter.until = bound
        var state = LibraryState()
        try readLog(filter) { state.evolve($0.event) }
        return (state.podcast(id), state.episodes.values.compactMap(\.live).sorted { $0.number < $1.number })
    }

    /// The episode as it stood at `bound`: its stream folded up to that point.
    public func episode(_ id: EpisodeID, asOf bound: LogBound) throws -> EpisodeState {
        try episodeWithTime(id, asOf: bound).state
    }

    /// The episode as it stood at `bound`, and the time of its last event up to then (nil when none).
    public func episodeWithTime(_ id: EpisodeID, asOf bound: LogBound) throws -> (state: EpisodeState, updatedAt: Timestamp?) {
        try refreshLog()
        return try folded(EpisodeDecider.self, StreamID(domain: id.streamName), asOf: bound)
    }

    /// The podcast alone (its name and defaults, not its episodes) as it stood at `bound`: its stream
    /// folded up to that point, for naming an episode as it then was.
    public func podcastState(_ id: PodcastID, asOf bound: LogBound) throws -> PodcastState {
        try refreshLog()
        return try folded(PodcastDecider.self, StreamID(domain: id.streamName), asOf: bound).state
    }

    /// `stream` folded by `decider` up to `bound`, and the time of its last event up to then.
    private func folded<D: Decider>(_ decider: D.Type, _ stream: StreamID, asOf bound: LogBound) throws -> (state: D.State, updatedAt: Timestamp?) {
        var state = D.initial
        var updatedAt: Timestamp?
        try store.read(stream: stream) { envelope in
            guard bound.admits(position: envelope.position, time: envelope.timestamp) else { return }
            state = D.evolve(state, try DomainEvents.decode(envelope))
            updatedAt = envelope.timestamp
        }
        return (state, updatedAt)
    }
}
