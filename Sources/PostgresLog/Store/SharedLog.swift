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
        let rows: PostgresQueryResult
        do {
            rows = try session.query("SELECT library_id, position FROM \(unescaped: schema).log_head")
        } catch let error as PSQLError where ["42P01", "3F000"].contains(error.serverInfo?[.sqlState]) {
            throw SharedLogError.noSharedLibrary(server: "\(session.endpoint)", schema: schema)
        }
        guard let (id, position) = try rows.first?.decode((UUID, Int64).self) else {
            throw SharedLogError.noSharedLibrary(server: "\(session.endpoint)", schema: schema)
        }
        return (LibraryID(id), LogPosition(UInt64(position)))
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

    /// Throws ``SharedLogError/logReplaced(position:)`` unless the server's event at `position` is the
    /// one `log` holds there, field for field: what tells the same log from one restored and written
    /// again, or another library's.
    public func requireSameEvent(as log: EventLog, at position: LogPosition) throws {
        guard position != .none else { return }
        var mine: RecordedEvent?
        try log.read(from: position, through: position) { mine = RecordedEvent($0) }
        guard let theirs = try event(at: position), theirs == mine else { throw SharedLogError.logReplaced(position: position) }
    }

    /// The event at `position`, or nil when the server's log does not reach it.
    public func event(at position: LogPosition) throws -> RecordedEvent? {
        try events(after: LogPosition(position.rawValue - 1), through: position).first?.event
    }

    private struct Row {
        var event: RecordedEvent
        var commitFirst: LogPosition
        var commitLast: LogPosition
        var chained: Bool
    }

    private func events(after start: LogPosition, through end: LogPosition) throws -> [Row] {
        let rows = try session.query("""
            SELECT position, commit_first, commit_last, chained, stream, stream_version, type, schema_version, time_ms, actor,
                   command_id, undoes, data, blobs
            FROM \(unescaped: schema).events WHERE position > \(Int64(start.rawValue)) AND position <= \(Int64(end.rawValue))
            ORDER BY position
            """)
        return try rows.map { row in
            let (position, first, last, chained, stream, version, type, schemaVersion, time, actor, command, undoes, data, blobs) =
                try row.decode((Int64, Int64, Int64, Bool, String, Int, String, Int, Int64, String, UUID, UUID?, String, [String]).self)
            guard let streamID = StreamID(rawValue: stream), let timestamp = Timestamp(rawValue: time) else {
                throw SharedLogError.outOfStep(position: LogPosition(UInt64(position)), reason: "the server's event is malformed")
            }
            let refs = try blobs.map { text in
                let parts = text.split(separator: ":")
                guard parts.count == 2, let size = Int(parts[1]), let ref = BlobRef(sha256: String(parts[0]), byteCount: size) else {
                    throw SharedLogError.outOfStep(position: LogPosition(UInt64(position)), reason: "a blob reference is malformed")
                }
                return ref
            }
            let event = RecordedEvent(
                position: LogPosition(UInt64(position)), stream: streamID, streamVersion: version, type: type,
                schemaVersion: schemaVersion, timestamp: timestamp, actor: actor, commandID: CommandID(command),
                undoes: undoes.map { CommandID($0) }, blobs: refs, payload: Array(data.utf8))
            return Row(event: event, commitFirst: LogPosition(UInt64(first)), commitLast: LogPosition(UInt64(last)), chained: chained)
        }
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
