import EventLog
import Foundation
import GRDB

/// The `projections` table: each projector's schema version and checkpoint (the last log position
/// its rows include), with the identity of the event at that position. A checkpoint moves in the same
/// transaction as the rows it covers.
///
/// The identity tells a read model that describes this log from one that describes another: a log
/// restored from an older copy and written again has other events at the same positions.
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

    /// Whether the table has the `event_identity` column: read models made by a build before it have
    /// not, and are rebuilt.
    static func recordsIdentities(_ db: Database) throws -> Bool {
        try db.columns(in: "projections").contains { $0.name == "event_identity" }
    }

    static func all(_ db: Database) throws -> [String: Row] {
        let identities = try recordsIdentities(db)
        let sql = "SELECT name, schema_version, checkpoint\(identities ? ", event_identity" : "") FROM projections"
        var rows: [String: Row] = [:]
        for row in try GRDB.Row.fetchAll(db, sql: sql) {
            let identity = identities ? (row["event_identity"] as String?).flatMap(EventIdentity.init(rawValue:)) : nil
            rows[row["name"]] = Row(schemaVersion: row["schema_version"], checkpoint: UInt64(row["checkpoint"] as Int64), identity: identity)
        }
        return rows
    }

    static func set(_ name: String, version: Int, checkpoint: UInt64, identity: EventIdentity? = nil, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO projections (name, schema_version, checkpoint, event_identity) VALUES (?, ?, ?, ?) "
                + "ON CONFLICT (name) DO UPDATE SET schema_version = excluded.schema_version, "
                + "checkpoint = excluded.checkpoint, event_identity = excluded.event_identity",
            arguments: [name, version, Int64(checkpoint), identity?.rawValue])
    }

    static func advance(_ names: [String], to checkpoint: UInt64, identity: EventIdentity?, in db: Database) throws {
        for name in names {
            try db.execute(
                sql: "UPDATE projections SET checkpoint = ?, event_identity = ? WHERE name = ?",
                arguments: [Int64(checkpoint), identity?.rawValue, name])
        }
    }
}
