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

extension ReadModel {
    /// Replays the whole log into a temporary read model and compares every table with the live one,
    /// row by row: what was projected is what the log says. The replay runs outside the writer lock;
    /// both are brought to the same head under it for the comparison. Returns at most `limit`
    /// differences per table.
    public func differencesFromReplay(
        log: EventLog, limit: Int = 20, progress: ((RebuildProgress) -> Void)? = nil
    ) throws -> [ReadModelDifference] {
        var template = Array((NSTemporaryDirectory() + "episodic-verify-XXXXXX").utf8CString)
        guard let folder = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: NSTemporaryDirectory()])
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try Self.build(folder + "/replay.sqlite", from: nil, projectors: projectors, fresh: projectors)
        let replay = try Self.openShadow(path)
        try Self.catchUp(replay, projectors: projectors, log: log, batchSize: batchSize, progress: progress)
        return try log.write { _ in
            try catchUp(with: log)
            try Self.catchUp(replay, projectors: projectors, log: log, batchSize: batchSize, progress: nil)
            var differences: [ReadModelDifference] = []
            for table in projectors.flatMap(\.tables) {
                differences += try database.read { live in
                    try replay.read { replayed in try Self.compare(table, live: live, replayed: replayed, limit: limit) }
                }
            }
            return differences
        }
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
