import CoreValues
import EventLog
import Foundation
import PodcastDomain

/// Folds events into the states of the entities they touch, with the domain's own `evolve`, so that a
/// read model's flags are computed exactly as the domain computes them.
///
/// A stretch of the log is read twice, on every core (through a ``LogReader`` each): once to plan
/// (``FoldPlan``: which events the final states need), then again to copy out only those, decode them
/// while the next runs are read, and fold them in log order. States stay in memory across stretches
/// (a few hundred bytes per entity), so a replay of the whole log folds each entity once and writes its
/// row once per transaction it appears in. An entity met for the first time starts from its state as
/// of the fold's start: `.initial` when the fold starts at the beginning of the log, else the fold of
/// its stream up to there, read through the stream index (cost in proportion to that stream, not to
/// the log).
struct EntityFold {
    private var podcasts: [PodcastID: EntityChanges.Change<PodcastState>] = [:]
    private var episodes: [EpisodeID: EntityChanges.Change<EpisodeState>] = [:]
    private let log: EventLog
    /// Readers, one per core used (the first reads the fold's own log).
    private var readers: [LogReader]
    /// The last position before the fold.
    private let base: LogPosition

    /// Events each reader reads per round of the second read: small enough that the needed events
    /// copied out and those being decoded stay a few megabytes.
    static let copyRunLength = 32_768

    init(log: EventLog, after base: LogPosition) {
        self.log = log
        self.base = base
        readers = [LogReader(log)]
    }

    /// Plans the events after `start`, through `head` or as far as `entityLimit` entities (see ``FoldPlan``),
    /// on every core when there are runs enough: the log is opened again for each other core.
    mutating func plan(after start: LogPosition, through head: LogPosition, runLength: Int, entityLimit: Int) throws -> FoldPlan {
        let runs = Int((head.rawValue - start.rawValue) / UInt64(max(runLength, 1)))
        while readers.count < (runs <= 1 ? 1 : min(runs, Parallelism.cores)) {
            readers.append(LogReader(try EventLog(at: log.path, options: log.options)))
        }
        return try FoldPlan(readers: readers, after: start, through: head, runLength: runLength, entityLimit: entityLimit)
    }

    /// Reads the planned events again, from the position after `start`, folds those the plan needs, and
    /// returns the states of the plan's entities. `progress` is told the position read after each round
    /// of runs (at most `batchSize` events a reader), whose events may still be being folded.
    mutating func apply(
        _ plan: FoldPlan, after start: LogPosition, batchSize: Int, progress: (LogPosition) -> Void
    ) throws -> EntityChanges {
        try prepare(plan.podcasts, in: &podcasts, PodcastDecider.initial, PodcastDecider.evolve)
        try prepare(plan.episodes, in: &episodes, EpisodeDecider.initial, EpisodeDecider.evolve)
        let needed = plan.neededPositions(after: start)
        // Round by round, each reader copies out the needed events of a run on a thread of its own; they
        // are decoded on every core while the next round is read, then folded in log order. The fold of
        // a round, on this thread alone, goes on while the next round is copied.
        var decoding: [DecodingRun] = []
        var position = start
        while position < plan.end {
            let length = min(batchSize, Self.copyRunLength)
            let runs = LogReader.runs(after: position, through: plan.end, length: length, count: readers.count)
            let readers = readers
            let events = runs.map { $0.count }.reduce(0, +)
            let copying = Ahead(worthAThread: events >= Parallelism.elementsPerWorker) {
                Result { try LogReader.read(runs, with: readers) { run, reader in try Self.copy(needed, in: run, with: reader) } }
            }
            for run in decoding { try fold(run) }
            let copied = try copying.value.get()
            decoding = copied.flatMap { events in
                stride(from: 0, to: events.count, by: DecodingRun.maximumLength).map { offset in
                    DecodingRun(Array(events[offset..<min(offset + DecodingRun.maximumLength, events.count)]))
                }
            }
            position = LogPosition(runs.last!.upperBound)
            progress(position)
        }
        for run in decoding { try fold(run) }
        var changes = EntityChanges()
        changes.podcasts = Self.states(of: plan.podcasts, in: podcasts)
        changes.episodes = Self.states(of: plan.episodes, in: episodes)
        return changes
    }

    /// The needed events of `run`, copied out of the log with their entities; only they are parsed
    /// beyond their position.
    private static func copy(_ needed: PositionSet, in run: ClosedRange<UInt64>, with reader: LogReader) throws -> [RawEvent] {
        var events: [RawEvent] = []
        try reader.log.read(
            from: LogPosition(run.lowerBound), through: LogPosition(run.upperBound), where: { needed.contains($0.rawValue) }
        ) { envelope in
            events.append(try RawEvent(envelope, type: reader.types.type(named: envelope.typeBytes).name))
        }
        return events
    }

    /// Gives each entity of the plan its state as of the fold's start, if it has none yet. Its time is
    /// set by the events folded: every planned entity has at least one needed event, its latest.
    private func prepare<Kind, Field, Value>(
        _ streams: [Identifier<Kind>: FoldPlan.Stream<Field>],
        in states: inout [Identifier<Kind>: EntityChanges.Change<EntityState<Value>>],
        _ initial: EntityState<Value>, _ evolve: (EntityState<Value>, DomainEvent) -> EntityState<Value>
    ) throws {
        for id in streams.keys where states[id] == nil {
            states[id] = .init(state: try baseState(of: id.streamName, initial, evolve), updatedAt: Timestamp(rawValue: 0)!)
        }
    }

    /// Folds a decoded run into the states, in order, each entity's time being its latest event's.
    private mutating func fold(_ run: DecodingRun) throws {
        try run.forEach { index, event in
            let raw = run.events[index]
            switch raw.subject {
            case .podcast(let id): podcasts[id]!.fold(event, at: raw.time, PodcastDecider.evolve)
            case .episode(let id): episodes[id]!.fold(event, at: raw.time, EpisodeDecider.evolve)
            }
        }
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

extension EntityChanges.Change {
    fileprivate mutating func fold(_ event: DomainEvent, at time: Timestamp, _ evolve: (State, DomainEvent) -> State) {
        state = evolve(state, event)
        updatedAt = time
    }
}
