import CoreValues
import EventLog
import Foundation
import PostgresNIO

/// A shared library's log as its server holds it, in one schema: the head, whole commits by position,
/// single events for identity checks, and blobs by hash.
public struct SharedLog {
    public let session: PostgresSession
    public let schema: String

    public init(session: PostgresSession, schema: String) throws {
        try PostgresSchema.validate(schema)
        self.session = session
        self.schema = schema
    }

    /// The library's id and its last position; ``SharedLogError/noSharedLibrary(server:schema:)`` when
    /// the schema holds none.
    public func head() throws -> (library: LibraryID, position: LogPosition) {
        let found = try head(andEventAt: .none)
        return (found.library, found.position)
    }

    /// The library's id, its last position, and the event at `position` (nil for none, or when the log
    /// does not reach it): in one round trip, what a catch-up checks before it copies anything.
    public func head(andEventAt position: LogPosition) throws -> (library: LibraryID, position: LogPosition, event: RecordedEvent?) {
        let rows: PostgresQueryResult
        do {
            rows = try session.query("""
                SELECT h.library_id, h.position, \(unescaped: Self.columns("e"))
                FROM \(unescaped: schema).log_head h LEFT JOIN \(unescaped: schema).events e ON e.position = \(Int64(position.rawValue))
                """)
        } catch let error as PSQLError where ["42P01", "3F000"].contains(error.serverInfo?[.sqlState]) {
            throw SharedLogError.noSharedLibrary(server: "\(session.endpoint)", schema: schema)
        }
        guard let row = rows.first else { throw SharedLogError.noSharedLibrary(server: "\(session.endpoint)", schema: schema) }
        let (id, head, eventPosition) = try row.decode((UUID, Int64, Int64?).self)
        let event = eventPosition == nil ? nil : try Self.event(row, from: 2).event
        return (LibraryID(id), LogPosition(UInt64(head)), event)
    }

    /// The whole commits that follow `position`, about `limit` events of them (more when one commit is
    /// larger), in order; empty at the head. Positions are checked to follow on without a hole.
    public func commits(after position: LogPosition, limit: Int = 1000) throws -> [StoredCommit] {
        var rows = try events(after: position, through: LogPosition(position.rawValue + UInt64(limit)))
        guard let last = rows.last else { return [] }
        if last.commitLast > last.event.position {
            if rows.first!.commitFirst == last.commitFirst {
                // One commit larger than the page: take it whole.
                rows += try events(after: last.event.position, through: last.commitLast)
            } else {
                rows.removeAll { $0.commitFirst == last.commitFirst }
            }
        }
        var commits: [StoredCommit] = []
        var expected = position.next
        var index = rows.startIndex
        while index < rows.endIndex {
            let first = rows[index]
            guard first.event.position == expected, first.commitFirst == expected, first.commitLast >= expected else {
                throw SharedLogError.outOfStep(position: expected, reason: "the server's next commit starts at \(first.commitFirst)")
            }
            let end = index + Int(first.commitLast.rawValue - first.commitFirst.rawValue) + 1
            guard end <= rows.endIndex else {
                throw SharedLogError.outOfStep(position: expected, reason: "the server's commit ends before its last event")
            }
            var events: [RecordedEvent] = []
            for row in rows[index..<end] {
                guard row.event.position == expected, row.commitFirst == first.commitFirst else {
                    throw SharedLogError.outOfStep(position: expected, reason: "the server has a hole at this position")
                }
                events.append(row.event)
                expected = expected.next
            }
            commits.append(StoredCommit(events: events, chained: first.chained))
            index = end
        }
        return commits
    }

    /// Throws ``SharedLogError/logReplaced(position:)`` unless `theirs`, the server's event at
    /// `position`, is the one `log` holds there, field for field: what tells the same log from one
    /// restored and written again, or another library's.
    public static func requireSameEvent(_ theirs: RecordedEvent?, as log: EventLog, at position: LogPosition) throws {
        guard position != .none else { return }
        var mine: RecordedEvent?
        try log.read(from: position, through: position) { mine = RecordedEvent($0) }
        guard let theirs, theirs == mine else { throw SharedLogError.logReplaced(position: position) }
    }

    private struct Row {
        var event: RecordedEvent
        var commitFirst: LogPosition
        var commitLast: LogPosition
        var chained: Bool
    }

    private func events(after start: LogPosition, through end: LogPosition) throws -> [Row] {
        try session.query("""
            SELECT \(unescaped: Self.columns("e")) FROM \(unescaped: schema).events e
            WHERE e.position > \(Int64(start.rawValue)) AND e.position <= \(Int64(end.rawValue))
            ORDER BY e.position
            """).map { try Self.event($0, from: 0) }
    }

    /// The columns of an event, in the order ``event(_:from:)`` reads them.
    private static func columns(_ table: String) -> String {
        ["position", "commit_first", "commit_last", "chained", "stream", "stream_version", "type", "schema_version", "time_ms",
         "actor", "command_id", "undoes", "data", "blobs"].map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// The event whose columns start at `offset` in `row`.
    private static func event(_ row: PostgresRow, from offset: Int) throws -> Row {
        let cells = Array(row).dropFirst(offset)
        var columns = cells.makeIterator()
        func next<T: PostgresDecodable>(_: T.Type = T.self) throws -> T { try columns.next()!.decode(T.self) }
        let position: Int64 = try next()
        let first: Int64 = try next(), last: Int64 = try next(), chained: Bool = try next()
        let stream: String = try next(), version: Int = try next(), type: String = try next(), schemaVersion: Int = try next()
        let time: Int64 = try next(), actor: String = try next(), command: UUID = try next(), undoes: UUID? = try next()
        let data: String = try next(), blobs: [String] = try next()
        let at = LogPosition(UInt64(position))
        guard let streamID = StreamID(rawValue: stream), let timestamp = Timestamp(rawValue: time) else {
            throw SharedLogError.outOfStep(position: at, reason: "the server's event is malformed")
        }
        let refs = try blobs.map { text in
            let parts = text.split(separator: ":")
            guard parts.count == 2, let size = Int(parts[1]), let ref = BlobRef(sha256: String(parts[0]), byteCount: size) else {
                throw SharedLogError.outOfStep(position: at, reason: "a blob reference is malformed")
            }
            return ref
        }
        let event = RecordedEvent(
            position: at, stream: streamID, streamVersion: version, type: type, schemaVersion: schemaVersion, timestamp: timestamp,
            actor: actor, commandID: CommandID(command), undoes: undoes.map { CommandID($0) }, blobs: refs, payload: Array(data.utf8))
        return Row(event: event, commitFirst: LogPosition(UInt64(first)), commitLast: LogPosition(UInt64(last)), chained: chained)
    }

    /// Stores a blob's file bytes (an LZ4 frame) under its hash, once; storing it again changes nothing.
    public func upload(_ ref: BlobRef, stored bytes: [UInt8]) throws {
        try session.query("""
            INSERT INTO \(unescaped: schema).blobs (sha256, byte_count, data) VALUES (\(ref.sha256), \(Int64(ref.byteCount)), \(ByteBuffer(bytes: bytes)))
            ON CONFLICT (sha256) DO NOTHING
            """)
    }

    /// A blob's file bytes as stored, or nil when the server has none with that hash.
    public func download(_ ref: BlobRef) throws -> [UInt8]? {
        let rows = try session.query("SELECT data FROM \(unescaped: schema).blobs WHERE sha256 = \(ref.sha256)")
        guard let buffer = try rows.first?.decode(ByteBuffer.self) else { return nil }
        return Array(buffer.readableBytesView)
    }

    /// Which of `refs` the server holds.
    public func stored(_ refs: [BlobRef]) throws -> Set<String> {
        let hashes = refs.map(\.sha256)
        let rows = try session.query("SELECT sha256 FROM \(unescaped: schema).blobs WHERE sha256 = ANY(\(hashes)::text[])")
        return Set(try rows.map { try $0.decode(String.self) })
    }
}
