import GRDB

extension DatabaseWriter {
    /// Runs `body` in one deferred transaction, as GRDB's `read` does, without marking the connection
    /// read-only (`PRAGMA query_only`) around it. SQLite expires every statement a connection has
    /// prepared whenever that pragma changes, so each of a writer's reads would have it compile all its
    /// write statements again.
    /// `body` runs queries only.
    func readKeepingStatements<T>(_ body: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            guard !db.isInsideTransaction else { return try body(db) }
            var result: T?
            try db.inTransaction(.deferred) {
                result = try body(db)
                return .commit
            }
            return result!
        }
    }
}
