import CoreValues
import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// The columns of the row a statement has stepped to, read straight from SQLite by position: a list
/// reads thousands of rows, and a GRDB `Row` costs more per value than the query itself. Ids are
/// parsed from the text's bytes, without a `String` in between; times are integer milliseconds.
/// Valid until the next step.
struct StatementColumns {
    let statement: SQLiteStatement

    init(_ statement: Statement) {
        self.statement = statement.sqliteStatement
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    /// A text column's UTF-8 bytes; empty for NULL.
    func bytes(_ column: Int32) -> UnsafeRawBufferPointer {
        guard let text = sqlite3_column_text(statement, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column)))
    }

    /// A text column's bytes when it holds exactly `width` of them, found with one call into SQLite
    /// rather than two (its text ends with a NUL byte); nil otherwise. For ids and times, whose width
    /// is fixed.
    func bytes(_ column: Int32, width: Int) -> UnsafeRawBufferPointer? {
        guard let text = sqlite3_column_text(statement, column), strnlen(text, width + 1) == width else { return nil }
        return UnsafeRawBufferPointer(start: text, count: width)
    }

    func text(_ column: Int32) -> String { String(decoding: bytes(column), as: UTF8.self) }
    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
    func bool(_ column: Int32) -> Bool { sqlite3_column_int64(statement, column) != 0 }

    func id<Kind>(_ column: Int32) throws -> Identifier<Kind> {
        guard let id = bytes(column, width: 36).flatMap(Identifier<Kind>.init(utf8:)) else { throw Decode.Failure(value: text(column)) }
        return id
    }

    /// A time stored as milliseconds since 1970 (`Timestamp.rawValue`).
    func time(_ column: Int32) throws -> Timestamp {
        try Decode.time(milliseconds: sqlite3_column_int64(statement, column))
    }

    func optionalTime(_ column: Int32) throws -> Timestamp? {
        isNull(column) ? nil : try time(column)
    }
}
