import EventLog
import Foundation
import GRDB

extension ReadModel {
    /// How many touched entities a transaction writes at most (their states are in memory anyway).
    static let entitiesPerTransaction = 50_000
    /// The share of a run's replay time spent reading and folding its events, before its rows are written.
    static let foldShare = 2.0 / 3.0

    /// What a catch-up did: how many events it applied, and each projector's checkpoint afterwards.
    struct CaughtUp {
        var applied: UInt64
        var checkpoints: [String: Checkpoints.Row]
    }

    /// Brings every projector of `database` from its checkpoint to `end` (the log's head when nil).
    /// Each transaction also records the identity of the event its checkpoint moves to. Progress is told
    /// after each round of reading (at most `batchSize` events on each core); a transaction holds the
    /// rows of about `entitiesPerTransaction` entities at most. `stored` is the checkpoints as the
    /// caller knows them under the writer lock; nil reads them. `beforeCommit` runs once, inside the
    /// first transaction, just before it commits. `known` states spare the folds that start where they
    /// stand the reading of their streams.
    @discardableResult
    static func catchUp(
        _ database: some DatabaseWriter, projectors: [any Projector], log: EventLog, through end: LogPosition? = nil,
        stored: [String: Checkpoints.Row]? = nil, batchSize: Int, entitiesPerTransaction: Int = ReadModel.entitiesPerTransaction,
        known: KnownStates? = nil, beforeCommit: (() throws -> Void)? = nil, progress: ((RebuildProgress) -> Void)?
    ) throws -> CaughtUp {
        var beforeCommit = beforeCommit
        let head = min(end ?? log.head, log.head)
        let stored = try stored ?? database.readKeepingStatements(Checkpoints.all)
        var reached = stored
        // Projectors at the same checkpoint share one fold.
        let groups = Dictionary(grouping: projectors.filter { stored[$0.name] != nil }) { stored[$0.name]!.checkpoint }
        var applied: UInt64 = 0
        let total = groups.keys.map { head.rawValue - min($0, head.rawValue) }.reduce(0, +)
        let started = ContinuousClock.now
        // What is replayed is held to the chain as it is read (`EntityFold`), and to the head record here.
        if groups.keys.contains(where: { $0 < head.rawValue }) { try log.checkRecordedCommit() }
        for (checkpoint, group) in groups.sorted(by: { $0.key < $1.key }) where checkpoint < head.rawValue {
            // The states projector's rows stand at the group's checkpoint when it is one of the group,
            // and stay there for every entity the fold has not met yet: where the fold starts those.
            let held: EntityFold.HeldStateReader? = group.contains { $0 is StatesProjector }
                ? { podcasts, episodes in try database.readKeepingStatements { try StatesProjector.held(podcasts: podcasts, episodes: episodes, in: $0) } }
                : nil
            var fold = EntityFold(log: log, after: LogPosition(checkpoint), known: known, held: held)
            var position = LogPosition(checkpoint)
            while position < head {
                // Each transaction writes the final rows of the entities its events touched: an entity
                // touched again and again in a replay is written once, not once per batch.
                let plan = try fold.plan(
                    after: position, through: head, runLength: batchSize, entityLimit: entitiesPerTransaction)
                // Reading and folding a run is about two thirds of its time, writing its rows the rest:
                // its events count as done in that measure, so the bar does not sit at 100 % while
                // the rows are written.
                func tell(_ done: Double) {
                    guard let progress else { return }
                    let seconds = (ContinuousClock.now - started).seconds
                    progress(RebuildProgress(done: UInt64(done), total: total, rate: seconds > 0 ? done / seconds : 0))
                }
                let base = Double(applied + position.rawValue - checkpoint)
                let changes = try fold.apply(plan, after: position, batchSize: batchSize) { reached in
                    tell(base + Double(reached.rawValue - position.rawValue) * Self.foldShare)
                }
                let identity = try log.identity(at: plan.end)
                let writes = group.map { $0.prepareWrite(changes) }
                try database.write { db in
                    for prepared in writes { try prepared.write(db) }
                    try Checkpoints.advance(group.map(\.name), to: plan.end.rawValue, identity: identity, in: db)
                    try beforeCommit?()
                    beforeCommit = nil
                }
                for projector in group {
                    reached[projector.name]?.checkpoint = plan.end.rawValue
                    reached[projector.name]?.identity = identity
                }
                position = plan.end
                tell(Double(applied + position.rawValue - checkpoint))
            }
            applied += head.rawValue - checkpoint
        }
        return CaughtUp(applied: applied, checkpoints: reached)
    }

    /// The first checkpoint of `stored` that does not describe `log`: beyond its head (after a refresh, in
    /// case another process appended since this one last looked), or at an event other than the one
    /// it recorded. Nil when every checkpoint stands on the log.
    static func mismatch(_ stored: [String: Checkpoints.Row], log: EventLog) throws -> Problem? {
        var identities: [UInt64: EventIdentity?] = [:]
        for row in stored.values.sorted(by: { $0.checkpoint > $1.checkpoint }) {
            if row.checkpoint > log.head.rawValue { try log.refresh() }
            if row.checkpoint > log.head.rawValue {
                return .ahead(checkpoint: row.checkpoint, head: log.head.rawValue, tail: log.unreadableTail)
            }
            guard row.checkpoint > 0 else { continue }
            if identities[row.checkpoint] == nil { identities[row.checkpoint] = try log.identity(at: LogPosition(row.checkpoint)) }
            if identities[row.checkpoint]! != row.identity { return .diverged(position: row.checkpoint, recorded: row.identity) }
        }
        return nil
    }
}
