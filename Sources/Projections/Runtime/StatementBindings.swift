import CoreValues
import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// A prepared statement's parameters bound straight into SQLite by position, then the statement run:
/// a rebuild writes tens of thousands of rows, and `StatementArguments` (an array of boxed values, each
/// made a `DatabaseValue`) costs more per row than SQLite's insert. The counterpart of
/// ``StatementColumns``. Run it inside the transaction GRDB opened; each value is copied by SQLite.
struct StatementBindings {
    private let statement: Statement
    private let sqlite: SQLiteStatement

    /// Ready for new values: the last run is reset and its values cleared.
    init(_ statement: Statement) {
        self.statement = statement
        sqlite = statement.sqliteStatement
        sqlite3_reset(sqlite)
        sqlite3_clear_bindings(sqlite)
    }

    /// The `SQLITE_TRANSIENT` destructor: SQLite copies the value before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Parameters are numbered from 1, as in SQLite.
    func bind(_ parameter: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            // An empty buffer may have no address, which SQLite would take for NULL.
            _ = bytes.isEmpty
                ? sqlite3_bind_text(sqlite, parameter, "", 0, Self.transient)
                : sqlite3_bind_text(sqlite, parameter, bytes.baseAddress, Int32(bytes.count), Self.transient)
        }
    }

    func bind(_ parameter: Int32, _ text: String?) {
        if let text { bind(parameter, text) } else { sqlite3_bind_null(sqlite, parameter) }
    }

    func bind(_ parameter: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(sqlite, parameter, value) } else { sqlite3_bind_null(sqlite, parameter) }
    }

    func bind(_ parameter: Int32, _ value: Int) { sqlite3_bind_int64(sqlite, parameter, Int64(value)) }
    func bind(_ parameter: Int32, _ value: Bool) { sqlite3_bind_int64(sqlite, parameter, value ? 1 : 0) }

    /// Steps the statement to its end and resets it; an SQLite error is thrown as GRDB throws it.
    func run() throws {
        var code = sqlite3_step(sqlite)
        while code == SQLITE_ROW { code = sqlite3_step(sqlite) }
        guard code == SQLITE_DONE else {
            let message = sqlite3_db_handle(sqlite).flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            sqlite3_reset(sqlite)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
        sqlite3_reset(sqlite)
    }
}
