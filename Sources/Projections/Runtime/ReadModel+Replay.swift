import EventLog
import Foundation
import GRDB

/// A row of the live read model that a replay of the log does not give back.
public struct ReadModelDifference: Sendable, Equatable, CustomStringConvertible {
    public var table: String
    /// The row's id.
    public var id: String
    /// The column that differs; nil when the row is only on one side.
    public var column: String?
    /// The values as SQLite prints them; nil for a row that is missing on that side.
    public var live: String?
    public var replayed: String?

    public var description: String {
        guard let column else {
            return live == nil
                ? "\(table) row \(id) is missing from the read model (the log has it)"
                : "\(table) row \(id) is in the read model but not in the log"
        }
        return "\(table) row \(id), column \(column): the read model has \(live ?? "NULL"), the log gives \(replayed ?? "NULL")"
    }
}

/// What `log verify` finds about the read models.
public struct ReadModelCheck: Sendable, Equatable {
    /// What SQLite's integrity check reports, and checkpoints that do not stand on the log: damage.
    public var problems: [String]
    /// Rows of the read model that a replay of the log does not give back.
    public var differences: [ReadModelDifference]
    /// The position the rows were compared at (the read model's checkpoint); nil when they were not
    /// compared, because of `problems`.
    public var comparedAt: LogPosition?
}

extension ReadModel {
    /// Checks the live read model: SQLite's integrity check, its checkpoints against the log, then every
    /// projector's tables (``Projector/tables``) against a replay of the log into a temporary folder, row
    /// by row, at the projector's checkpoint (the comparison reads one snapshot of each file, so it takes
    /// no lock and writes nothing in the library). Returns at most `limit` differences per table.
    ///
    /// Memory stays bounded however large the library: the live files are read through connections that
    /// do not map them (a scan would make every mapped page resident), with a small page cache; the
    /// replay holds what a rebuild holds; tables are walked side by side, a row at a time.
    public func check(log: EventLog, limit: Int = 20, progress: ((RebuildProgress) -> Void)? = nil) throws -> ReadModelCheck {
        let checking: ReadModelAccess = access == .readWrite ? .readOnly(reason: "it is being checked") : access
        let database = try Self.openGeneration(opened.generation, projectors: projectors, access: checking, scanning: true)
        var problems: [String] = []
        do {
            let report = try database.readKeepingStatements { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
            if report != ["ok"] { problems += report.map { "SQLite's integrity check: \($0)" } }
            if let mismatch = try Self.mismatch(try database.readKeepingStatements(Checkpoints.all), log: log) { problems.append(mismatch.reason) }
        } catch where ReadModelFailure.isMalformed(error) {
            problems.append("SQLite reports it malformed: \(error)")
        }
        guard problems.isEmpty else { return ReadModelCheck(problems: problems, differences: [], comparedAt: nil) }

        let folder = try Self.temporaryFolder("episodic-verify")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let replay = try GenerationBuild(in: folder, replaying: projectors)
        defer { replay.discard() }
        // The long part first, up to where the read model stands now; it can only move on from there.
        let first = try database.readKeepingStatements(Checkpoints.all).values.map(\.checkpoint).min() ?? 0
        try replay.catchUp(log, through: LogPosition(first), batchSize: batchSize, progress: progress)
        var differences: [ReadModelDifference] = []
        var comparedAt = LogPosition.none
        try database.readKeepingStatements { live in
            let stored = try Checkpoints.all(live)
            let groups = Dictionary(grouping: projectors) { stored[$0.name]?.checkpoint ?? 0 }
            for (checkpoint, group) in groups.sorted(by: { $0.key < $1.key }) {
                try replay.catchUp(log, through: LogPosition(checkpoint), batchSize: batchSize, progress: nil)
                for table in group.flatMap(\.tables) {
                    differences += try replay.database!.readKeepingStatements { replayed in try Self.compare(table, live: live, replayed: replayed, limit: limit) }
                }
                comparedAt = max(comparedAt, LogPosition(checkpoint))
            }
        }
        return ReadModelCheck(problems: [], differences: differences, comparedAt: comparedAt)
    }

    /// Walks both tables in id order side by side, so memory stays constant whatever their size.
    private static func compare(_ table: String, live: Database, replayed: Database, limit: Int) throws -> [ReadModelDifference] {
        let sql = "SELECT * FROM \(table) ORDER BY id"
        let left = try Row.fetchCursor(live, sql: sql), right = try Row.fetchCursor(replayed, sql: sql)
        var differences: [ReadModelDifference] = []
        var a = try left.next().map { $0.copy() }, b = try right.next().map { $0.copy() }
        while differences.count < limit, a != nil || b != nil {
            let idA = a.map { String(describing: $0["id"] as DatabaseValue) }
            let idB = b.map { String(describing: $0["id"] as DatabaseValue) }
            if let a, let b, idA == idB {
                for column in a.columnNames where a[column] as DatabaseValue != b[column] as DatabaseValue {
                    differences.append(ReadModelDifference(
                        table: table, id: idA!, column: column, live: text(a[column]), replayed: text(b[column])))
                }
            }
            if let idA, idB == nil || idA < idB! {
                differences.append(ReadModelDifference(table: table, id: idA, column: nil, live: "row", replayed: nil))
                a = try left.next().map { $0.copy() }
            } else if let idB, idA == nil || idB < idA! {
                differences.append(ReadModelDifference(table: table, id: idB, column: nil, live: nil, replayed: "row"))
                b = try right.next().map { $0.copy() }
            } else {
                a = try left.next().map { $0.copy() }
                b = try right.next().map { $0.copy() }
            }
        }
        return differences
    }

    private static func text(_ value: DatabaseValue) -> String? {
        value.isNull ? nil : String(describing: value)
    }
}
