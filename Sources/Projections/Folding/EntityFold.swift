import CoreValues
import EventLog
import Foundation
import PodcastDomain

/// Folds events into the states of the entities they touch, with the domain's own `evolve`, so that a
/// read model's flags are computed exactly as the domain computes them.
///
/// A run of events is read twice: once to plan (``FoldPlan``: which events the final states need),
/// then again to decode only those, on every core, and fold them in log order. States stay in memory
/// across runs (a few hundred bytes per entity), so a replay of the whole log folds each entity once
/// and writes its row once per transaction it appears in. An entity met for the first time starts from
/// its state as of the fold's start: `.initial` when the fold starts at the beginning of the log, else
/// the fold of its stream up to there, read through the stream index (cost in proportion to that
/// stream, not to the log).
struct EntityFold {
    private var podcasts: [PodcastID: EntityChanges.Change<PodcastState>] = [:]
    private var episodes: [EpisodeID: EntityChanges.Change<EpisodeState>] = [:]
    private var types = EventTypes()
    private let log: EventLog
    /// The last position before the fold.
    private let base: LogPosition

    init(log: EventLog, after base: LogPosition) {
        self.log = log
        self.base = base
    }

    /// Plans the events after `start`, through `head` or as far as `entityLimit` entities (see ``FoldPlan``).
    mutating func plan(after start: LogPosition, through head: LogPosition, runLength: Int, entityLimit: Int) throws -> FoldPlan {
        try FoldPlan(log: log, after: start, through: head, runLength: runLength, entityLimit: entityLimit, types: &types)
    }

    /// Reads the planned events again, from the position after `start`, folds those the plan needs, and
    /// returns the states of the plan's entities. `progress` is told the position reached after every
    /// `batchSize` events, all folded.
    mutating func apply(
        _ plan: FoldPlan, after start: LogPosition, batchSize: Int, progress: (LogPosition) -> Void
    ) throws -> EntityChanges {
        try prepare(plan.podcasts, in: &podcasts, PodcastDecider.initial, PodcastDecider.evolve)
        try prepare(plan.episodes, in: &episodes, EpisodeDecider.initial, EpisodeDecider.evolve)
        let needed = plan.neededEvents()
        var next = 0
        var run: [RawEvent] = []
        var position = start
        while position < plan.end {
            let last = LogPosition(min(position.rawValue + UInt64(batchSize), plan.end.rawValue))
            try log.read(from: position.next, through: last) { envelope in
                guard next < needed.count, envelope.position.rawValue == needed[next].position else { return }
                run.append(RawEvent(envelope, type: types.type(named: envelope.typeBytes).name))
                next += 1
                if run.count == ParallelDecoding.maximumRun { try fold(&run, subjects: needed[(next - run.count)...]) }
            }
            try fold(&run, subjects: needed[(next - run.count)...])
            position = last
            progress(position)
        }
        var changes = EntityChanges()
        changes.podcasts = Self.states(of: plan.podcasts, in: podcasts)
        changes.episodes = Self.states(of: plan.episodes, in: episodes)
        return changes
    }

    /// Gives each entity of the plan its state as of the fold's start if it has none yet, and the time
    /// of its latest event.
    private func prepare<Kind, Field, Value>(
        _ streams: [Identifier<Kind>: FoldPlan.Stream<Field>],
        in states: inout [Identifier<Kind>: EntityChanges.Change<EntityState<Value>>],
        _ initial: EntityState<Value>, _ evolve: (EntityState<Value>, DomainEvent) -> EntityState<Value>
    ) throws {
        for (id, stream) in streams {
            if states[id] == nil {
                states[id] = .init(state: try baseState(of: id.streamName, initial, evolve), updatedAt: stream.updatedAt)
            }
            states[id]!.updatedAt = stream.updatedAt
        }
    }

    /// Decodes `run` on every core and folds it into the states, in order; empties it.
    private mutating func fold(
        _ run: inout [RawEvent], subjects: ArraySlice<(position: UInt64, subject: FoldPlan.Subject)>
    ) throws {
        try ParallelDecoding.forEach(run) { index, event in
            switch subjects[subjects.startIndex + index].subject {
            case .podcast(let id): podcasts[id]!.state = PodcastDecider.evolve(podcasts[id]!.state, event)
            case .episode(let id): episodes[id]!.state = EpisodeDecider.evolve(episodes[id]!.state, event)
            }
        }
        run.removeAll(keepingCapacity: true)
    }

    /// The states of the planned entities: all states, shared rather than copied, when the plan touched
    /// every entity (a replay's last transaction, where a copy would double the memory they take).
    private static func states<ID, Field, State>(of streams: [ID: FoldPlan.Stream<Field>], in states: [ID: State]) -> [ID: State] {
        guard streams.count < states.count else { return states }
        var subset: [ID: State] = [:]
        subset.reserveCapacity(streams.count)
        for id in streams.keys { subset[id] = states[id] }
        return subset
    }

    private func baseState<State>(of stream: String, _ initial: State, _ evolve: (State, DomainEvent) -> State) throws -> State {
        guard base > .none, let id = StreamID(rawValue: stream) else { return initial }
        var state = initial
        try log.read(stream: id) { envelope in
            guard envelope.position <= base else { return }
            state = evolve(state, try RawEvent(envelope).decode())
        }
        return state
    }
}
