import EventLog
import Foundation
import GRDB

/// The `projections` table of each projector's file: the projector's schema version and checkpoint (the
/// last log position its rows include), with the identity of the event at that position. A checkpoint
/// moves in the same transaction as the rows it covers, in the same file.
///
/// The identity tells a read model that describes this log from one that describes another: a log
/// restored from an older copy and written again has other events at the same positions.
///
/// Files are attached under their projectors' names, so a projector's row is read and written in the
/// schema of that name; a generation made by a build before manifests has every row in its main database.
enum Checkpoints {
    /// The table's DDL, from `schemas/projections/checkpoints.sql`.
    static func ddl() throws -> String {
        guard let url = Bundle.module.url(forResource: "checkpoints", withExtension: "sql", subdirectory: "Schemas") else {
            throw ProjectionError.missingSchema("checkpoints")
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    struct Row: Equatable {
        var schemaVersion: Int
        var checkpoint: UInt64
        /// The identity of the event at `checkpoint`; nil at checkpoint 0.
        var identity: EventIdentity?
    }

    /// A `projections` table: the schema it is in, and whether it has the `event_identity` column (read
    /// models made by a build before it have not, and are rebuilt).
    struct Table: Equatable {
        var schema: String
        var recordsIdentities: Bool
    }

    /// The schemas of `db` that hold a `projections` table: the attached files, and the main database
    /// when it has one (a generation made before manifests). One query, whatever the number of files.
    static func tables(_ db: Database) throws -> [Table] {
        let sql = """
            SELECT d.name, EXISTS (SELECT 1 FROM pragma_table_xinfo('projections', d.name) WHERE name = 'event_identity')
            FROM pragma_database_list d
            WHERE d.name <> 'temp' AND EXISTS (SELECT 1 FROM pragma_table_xinfo('projections', d.name))
            ORDER BY d.seq
            """
        return try GRDB.Row.fetchAll(db, sql: sql).map { Table(schema: $0[0], recordsIdentities: $0[1]) }
    }

    /// Every projector's row, read from the tables that a generation made by this build has (one in each
    /// projector's file, with identities) without looking for them first: nil, to look with
    /// ``tables(_:)``, when `generation` has no files or one of them has no such table.
    static func expected(_ generation: Generation, in db: Database) throws -> (tables: [Table], rows: [String: Row])? {
        guard !generation.isSingleFile, !generation.files.isEmpty else { return nil }
        let tables = generation.files.keys.sorted().map { Table(schema: ReadModel.schema($0), recordsIdentities: true) }
        do {
            return (tables, try all(db, in: tables))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            return nil  // no such table, or no such column: a file made otherwise
        }
    }

    /// Every projector's row, from the `projections` tables `tables` (``tables(_:)``), in one statement.
    static func all(_ db: Database, in tables: [Table]) throws -> [String: Row] {
        guard !tables.isEmpty else { return [:] }
        let sql = tables.map { table in
            "SELECT name, schema_version, checkpoint, \(table.recordsIdentities ? "event_identity" : "NULL") "
                + "FROM \(ReadModel.schema(table.schema)).projections"
        }.joined(separator: " UNION ALL ")
        var rows: [String: Row] = [:]
        for row in try GRDB.Row.fetchAll(db, sql: sql) {
            rows[row[0]] = Row(
                schemaVersion: row[1], checkpoint: UInt64(row[2] as Int64), identity: (row[3] as String?).flatMap(EventIdentity.init(rawValue:)))
        }
        return rows
    }

    /// Every projector's row, its tables found first.
    static func all(_ db: Database) throws -> [String: Row] {
        try all(db, in: tables(db))
    }

    /// Sets the row of projector `name` in its file, the database `schema` (`main` while the file is made).
    static func set(_ name: String, version: Int, checkpoint: UInt64, identity: EventIdentity? = nil, in db: Database, schema: String) throws {
        try db.execute(
            sql: "INSERT INTO \(ReadModel.schema(schema)).projections (name, schema_version, checkpoint, event_identity) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (name) DO UPDATE SET schema_version = excluded.schema_version, "
                + "checkpoint = excluded.checkpoint, event_identity = excluded.event_identity",
            arguments: [name, version, Int64(checkpoint), identity?.rawValue])
    }

    /// Moves the checkpoints of the projectors `names`, each in its own file.
    static func advance(_ names: [String], to checkpoint: UInt64, identity: EventIdentity?, in db: Database) throws {
        for name in names {
            try db.cachedStatement(sql: advanceSQL(name)).execute(arguments: [Int64(checkpoint), identity?.rawValue, name])
        }
    }

    /// The SQL that moves projector `name`'s checkpoint, in its own file.
    static func advanceSQL(_ name: String) -> String {
        "UPDATE \(ReadModel.schema(name)).projections SET checkpoint = ?, event_identity = ? WHERE name = ?"
    }
}
