import CoreValues
import EventCodec
import EventLog
import Foundation
import PodcastDomain

/// Folds events into the states of the entities they touch, with the domain's own `evolve`, so that a
/// read model's flags are computed exactly as the domain computes them.
///
/// A stretch of the log is read twice, on every core (through a ``LogReader`` each): once to plan
/// (``FoldPlan``: which events the final states need, from the events' heads alone), then again to
/// copy out only those, while the events copied in the round before are decoded and folded
/// (``FoldShards``: each entity's in log order, the shards side by side). States stay in memory across
/// stretches (a few hundred bytes per entity), so a replay of the whole log folds each entity once and
/// writes its row once per transaction it appears in. An entity met for the first time starts from its
/// state as of the fold's start: `.initial` when the fold starts at the beginning of the log, else the
/// fold of its stream up to there: known to the caller (``KnownStates``), else held by the states
/// projector when it stands there too (``StatesProjector``: one row read), else read through the
/// stream index (cost in proportion to that stream, not to the log).
struct EntityFold {
    private let states = FoldShards()
    private let log: EventLog
    /// Readers, one per core used (the first reads the fold's own log).
    private var readers: [LogReader]
    /// The position the states held start from: an entity met for the first time is folded up to here.
    private var base: LogPosition
    /// States the caller folded through a position; used for entities met first while ``base`` is there.
    private let known: KnownStates?
    /// Reads the states projector's rows of the entities met for the first time, when its rows stand at
    /// ``base``; nil reads their streams.
    private let held: HeldStateReader?
    /// The hash chain as the plans have read it so far: every line a fold takes in is held to it.
    private var chain: ChainCheck?

    /// Events each reader reads per round of the second read: small enough that the needed events
    /// copied out and those being folded stay a few megabytes.
    static let copyRunLength = 32_768

    /// The rows of the states projector of some podcasts and episodes; see ``StatesProjector/held(podcasts:episodes:in:)``.
    typealias HeldStateReader = (_ podcasts: [PodcastID], _ episodes: [EpisodeID]) throws -> HeldStates

    init(log: EventLog, after base: LogPosition, known: KnownStates? = nil, held: HeldStateReader? = nil) {
        self.log = log
        self.base = base
        self.known = known
        self.held = held
        readers = [LogReader(log)]
    }

    /// Plans the events after `start`, through `head` or as far as `entityLimit` entities (see ``FoldPlan``),
    /// on every core when there are runs enough: the log is opened again for each other core.
    mutating func plan(after start: LogPosition, through head: LogPosition, runLength: Int, entityLimit: Int) throws -> FoldPlan {
        let runs = Int((head.rawValue - start.rawValue) / UInt64(max(runLength, 1)))
        while readers.count < (runs <= 1 ? 1 : min(runs, Parallelism.cores)) {
            readers.append(LogReader(try EventLog(at: log.path, options: log.options)))
        }
        // The second read skips the checksums this one checks: both must read the same files.
        for reader in readers { try reader.log.pinSegments(from: start.next) }
        var chain = try self.chain ?? log.chainCheck(after: start)
        let plan = try FoldPlan(readers: readers, after: start, through: head, runLength: runLength, entityLimit: entityLimit, chain: &chain)
        self.chain = chain
        return plan
    }

    /// Reads the planned events again, from the position after `start`, folds those the plan needs, and
    /// returns the states of the plan's entities. `progress` is told the position read after each round
    /// of runs (at most `batchSize` events a reader), whose events may still be being folded.
    mutating func apply(
        _ plan: FoldPlan, after start: LogPosition, batchSize: Int, progress: (LogPosition) -> Void
    ) throws -> EntityChanges {
        try startEntities(of: plan)
        let needed = plan.neededPositions(after: start)
        // Round by round, each reader copies out the needed events of a run, while the shards decode and
        // fold the events of the round before: one task per run and one per shard, taken by every core.
        // The last round only folds.
        var folding = FoldShards.Round()
        var position = start
        while true {
            let length = min(batchSize, Self.copyRunLength)
            let runs = position < plan.end ? LogReader.runs(after: position, through: plan.end, length: length, count: readers.count) : []
            guard !runs.isEmpty || folding.count > 0 else { break }
            let (readers, states, round) = (readers, states, folding)
            let events = runs.reduce(round.count) { $0 + $1.count }
            let copied = Slots<[[RawEvent]]>(count: runs.count)
            let folded = Slots<Void>(count: FoldShards.count)
            Parallelism.perform(runs.count + FoldShards.count, onEveryCore: events >= Parallelism.elementsPerWorker) { task in
                if task < runs.count {
                    copied[task] = Result { FoldShards.Round.split(try Self.copy(needed, in: runs[task], with: readers[task])) }
                } else {
                    folded[task - runs.count] = Result { try states.fold(round, shard: task - runs.count) }
                }
            }
            if let failure = FoldShards.earliest(folded.failures) { throw failure }
            folding = FoldShards.Round(try copied.values())
            guard let last = runs.last else { break }
            position = LogPosition(last.upperBound)
            progress(position)
        }
        var changes = EntityChanges()
        if plan.podcasts.count == states.podcastCount, plan.episodes.count == states.episodeCount {
            // The plan touched every entity held (a replay's last transaction): the states are handed
            // over rather than copied, and a later round starts again from here.
            (changes.podcasts, changes.episodes) = states.removeAll()
            base = plan.end
        } else {
            for id in plan.podcasts.keys { changes.podcasts[id] = states[podcast: id] }
            for id in plan.episodes.keys { changes.episodes[id] = states[episode: id] }
        }
        return changes
    }

    /// The needed events of `run`, copied out of the log with their entities; only they are parsed
    /// beyond their position.
    private static func copy(_ needed: PositionSet, in run: ClosedRange<UInt64>, with reader: LogReader) throws -> [RawEvent] {
        var events: [RawEvent] = []
        // The plan read these frames, from the same pinned files, with their checksums checked.
        try reader.log.read(
            from: LogPosition(run.lowerBound), through: LogPosition(run.upperBound), where: { needed.contains($0.rawValue) },
            checkingChecksums: false
        ) { envelope in
            events.append(try RawEvent(envelope, type: reader.types.type(named: envelope.typeBytes).name))
        }
        return events
    }

    /// Gives each entity of `plan` met for the first time its state as of the fold's start: the
    /// caller's, else the states projector's, else its stream's fold. Its time is set by the events
    /// folded: every planned entity has at least one needed event, its latest.
    private mutating func startEntities(of plan: FoldPlan) throws {
        let known = known.flatMap { $0.position == base ? $0 : nil }
        let podcasts = plan.podcasts.keys.filter { states[podcast: $0] == nil }
        let episodes = plan.episodes.keys.filter { states[episode: $0] == nil }
        let unknown = (podcasts.filter { known?.podcasts[$0] == nil }, episodes.filter { known?.episodes[$0] == nil })
        let rows = base > .none && !(unknown.0.isEmpty && unknown.1.isEmpty) ? try held?(unknown.0, unknown.1) : nil
        func starting<State>(_ state: State) -> EntityChanges.Change<State> { .init(state: state, updatedAt: Timestamp(rawValue: 0)!) }
        for id in podcasts {
            let state = known?.podcasts[id] ?? Self.state(rows?.podcasts, id, PodcastDecider.initial) { KeptStates.podcast($0, from: $1) }
            states[podcast: id] = starting(
                try state ?? baseState(of: id.streamName, PodcastDecider.initial, PodcastDecider.evolve) { KeptStates.podcast(id, from: $0) })
        }
        // Decoding thousands of rows (a machine far behind) is worth every core.
        let (knownEpisodes, heldEpisodes) = (known?.episodes ?? [:], rows?.episodes)
        let decoded = episodes.parallelMap { id in
            knownEpisodes[id] ?? Self.state(heldEpisodes, id, EpisodeDecider.initial) { KeptStates.episode($0, from: $1) }
        }
        for (id, state) in zip(episodes, decoded) {
            states[episode: id] = starting(
                try state ?? baseState(of: id.streamName, EpisodeDecider.initial, EpisodeDecider.evolve) { KeptStates.episode(id, from: $0) })
        }
    }

    /// `id`'s state among the states projector's `rows`: `initial` when it has no row (no event through
    /// the fold's start); nil when there are no rows, or its row does not decode as its state, so that
    /// its stream is read instead.
    private static func state<Kind, State>(
        _ rows: [String: [UInt8]]?, _ id: Identifier<Kind>, _ initial: State, _ decode: (Identifier<Kind>, [UInt8]) -> State?
    ) -> State? {
        guard let rows else { return nil }
        guard let row = rows[id.description] else { return initial }
        return decode(id, row)
    }

    /// The fold of `stream` through ``base``: from the fold a command kept of it (the log's
    /// `StreamSnapshots`, decoded by `kept`) when it stands at or before `base` and the log vouches for
    /// it, else from the stream's start.
    private func baseState<State>(
        of stream: String, _ initial: State, _ evolve: (State, DomainEvent) -> State, kept: ([UInt8]) -> State?
    ) throws -> State {
        guard base > .none, let id = StreamID(rawValue: stream) else { return initial }
        func fold(_ state: inout State, _ envelope: EventEnvelope) throws {
            guard envelope.position <= base else { return }
            state = evolve(state, try RawEvent(envelope).decode())
        }
        if let snapshot = log.snapshots.snapshot(of: id, format: KeptStates.format), snapshot.point.position <= base,
            var state = kept(snapshot.state), try log.read(stream: id, after: snapshot.point, { try fold(&state, $0) })
        {
            return state
        }
        var state = initial
        try log.read(stream: id) { try fold(&state, $0) }
        return state
    }
}
