import GRDB

/// The `projections` table: each projector's schema version and checkpoint (the last log position
/// its rows include). A checkpoint moves in the same transaction as the rows it covers.
enum Checkpoints {
    static let ddl = """
        CREATE TABLE IF NOT EXISTS projections (
            name           TEXT PRIMARY KEY,
            schema_version INTEGER NOT NULL,
            checkpoint     INTEGER NOT NULL
        ) STRICT
        """

    struct Row: Equatable {
        var schemaVersion: Int
        var checkpoint: UInt64
    }

    static func all(_ db: Database) throws -> [String: Row] {
        try Dictionary(uniqueKeysWithValues: Row.fetchAll(db).map { ($0.name, Row(schemaVersion: $0.version, checkpoint: $0.checkpoint)) })
    }

    static func set(_ name: String, version: Int, checkpoint: UInt64, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO projections (name, schema_version, checkpoint) VALUES (?, ?, ?) "
                + "ON CONFLICT (name) DO UPDATE SET schema_version = excluded.schema_version, checkpoint = excluded.checkpoint",
            arguments: [name, version, Int64(checkpoint)])
    }

    static func advance(_ names: [String], to checkpoint: UInt64, in db: Database) throws {
        for name in names {
            try db.execute(sql: "UPDATE projections SET checkpoint = ? WHERE name = ?", arguments: [Int64(checkpoint), name])
        }
    }
}

extension Checkpoints.Row {
    fileprivate static func fetchAll(_ db: Database) throws -> [(name: String, version: Int, checkpoint: UInt64)] {
        try GRDB.Row.fetchAll(db, sql: "SELECT name, schema_version, checkpoint FROM projections").map {
            ($0["name"], $0["schema_version"], UInt64($0["checkpoint"] as Int64))
        }
    }
}
