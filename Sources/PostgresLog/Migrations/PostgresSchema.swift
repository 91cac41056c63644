import CoreValues
import EventLog
import Foundation
import PostgresNIO

/// A shared library's tables on PostgreSQL, one schema per library, brought to this build's version
/// by Episodic itself: each `NNNN-*.sql` file of `Schema/` (also `schemas/postgres/` in the
/// repository) not yet applied is run, in order, in one transaction.
public enum PostgresSchema {
    /// The highest version this build knows: the number of the last DDL file.
    public static var version: Int { migrations.last?.version ?? 0 }

    /// What can go wrong bringing a schema up to date.
    public enum Failure: Error, Equatable, Sendable, ClassifiedError, CustomStringConvertible {
        /// The schema name is not a plain identifier (letters, digits, underscores; not a digit first).
        case invalidSchemaName(String)
        /// The schema was brought to a version newer than this build knows.
        case newerSchema(schema: String, found: Int, supported: Int)
        /// This build's DDL files are missing (a broken installation).
        case missingMigrations

        public var kind: ErrorKind {
            switch self {
            case .invalidSchemaName: .usage
            case .newerSchema, .missingMigrations: .failure
            }
        }

        public var description: String {
            switch self {
            case .invalidSchemaName(let name):
                "\(name) cannot name a library's schema: use letters, digits and underscores, not starting with a digit, "
                    + "and not a name PostgreSQL keeps for itself (pg_..., information_schema)."
            case let .newerSchema(schema, found, supported):
                "the shared library in schema \(schema) is at version \(found), newer than this build knows (up to \(supported)). "
                    + "Nothing was written; upgrade Episodic on this machine."
            case .missingMigrations:
                "this build's PostgreSQL schema files are missing."
            }
        }
    }

    /// A schema name that can be written into DDL unquoted.
    public static func validate(_ schema: String) throws(Failure) {
        let allowed = schema.utf8.allSatisfy { $0 == UInt8(ascii: "_") || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }
        guard allowed, let first = schema.utf8.first, !(first >= 0x30 && first <= 0x39), schema.utf8.count <= 63 else {
            throw .invalidSchemaName(schema)
        }
        // Unquoted, PostgreSQL folds a name to lower case: `PG_CATALOG` is pg_catalog.
        let folded = schema.lowercased()
        guard !folded.hasPrefix("pg_"), folded != "information_schema" else { throw .invalidSchemaName(schema) }
    }

    /// Creates `schema` if needed and applies the DDL versions it lacks, then gives a new library its
    /// log head with `libraryID`. Returns the library's id (the existing one for a library already
    /// there). Several machines may call it at once: the version table's lock serialises them, each
    /// waiting at most the session's lock wait.
    @discardableResult
    public static func prepare(_ schema: String, libraryID: LibraryID, on session: PostgresSession) throws -> LibraryID {
        try validate(schema)
        let migrations = Self.migrations
        guard !migrations.isEmpty else { throw Failure.missingMigrations }
        return try session.transaction {
            try session.query(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = \(max(1, session.lockWait.nanoseconds / 1_000_000))"))
            try session.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), waitsForOthers: true)
            // pg_temp last, so that a function that runs as the owner never reaches another role's temporary table.
            try session.query(PostgresQuery(unsafeSQL: "SET LOCAL search_path TO \(schema), pg_temp"))
            try session.query(
                "CREATE TABLE IF NOT EXISTS schema_versions (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                waitsForOthers: true)
            try session.query("LOCK TABLE schema_versions IN EXCLUSIVE MODE", waitsForOthers: true)
            let applied = try session.query("SELECT coalesce(max(version), 0) FROM schema_versions").first?.decode(Int.self) ?? 0
            guard applied <= Self.version else {
                throw Failure.newerSchema(schema: schema, found: applied, supported: Self.version)
            }
            for migration in migrations where migration.version > applied {
                for statement in statements(in: migration.sql) {
                    try session.query(PostgresQuery(unsafeSQL: statement), waitsForOthers: true)
                }
                try completeMigration(to: migration.version, on: session)
                try session.query("INSERT INTO schema_versions (version) VALUES (\(migration.version))")
            }
            let genesis = ChainDigest(libraryID: libraryID).hex
            try session.query(
                "INSERT INTO log_head (library_id, hash) VALUES (\(libraryID.uuid), \(genesis)) ON CONFLICT (singleton) DO NOTHING")
            let id = try session.query("SELECT library_id FROM log_head").first?.decode(UUID.self)
            return id.map(LibraryID.init) ?? libraryID
        }
    }

    /// The version `schema` was brought to; nil when it holds no library's tables.
    public static func appliedVersion(_ schema: String, on session: PostgresSession) throws -> Int? {
        try validate(schema)
        do {
            return try session.query(PostgresQuery(unsafeSQL: "SELECT coalesce(max(version), 0) FROM \(schema).schema_versions"))
                .first?.decode(Int.self)
        } catch SharedLogError.statementFailed(_, let state, _) where ["42P01", "3F000"].contains(state) {
            return nil
        }
    }

    /// What a version needs done in Swift once its DDL ran, in the same transaction: version 2 fills
    /// the chain for the commits already there.
    private static func completeMigration(to version: Int, on session: PostgresSession) throws {
        if version == 2 { try ServerChain.fill(on: session) }
    }

    /// The statements of a DDL file, one at a time (the extended protocol takes one per query): each
    /// ends with a `;` at the end of a line outside a `$$` body. Our own files are written that way.
    static func statements(in sql: String) -> [String] {
        var statements: [String] = [], current: [Substring] = [], inBody = false
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = line.hasPrefix("--") ? "" : line
            if code.isEmpty && current.isEmpty { continue }
            current.append(line)
            if code.components(separatedBy: "$$").count % 2 == 0 { inBody.toggle() }
            if !inBody, code.trimmingSpaces.hasSuffix(";") {
                statements.append(current.joined(separator: "\n"))
                current = []
            }
        }
        return statements
    }

    /// The DDL files, by the version their name begins with.
    static var migrations: [(version: Int, sql: String)] {
        guard let folder = Bundle.module.url(forResource: "Schema", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".sql") }.sorted().compactMap { name in
            guard let version = Int(name.prefix { $0.isNumber }),
                let sql = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            else { return nil }
            return (version, sql)
        }
    }
}
