import CoreValues
import EventLog
import Foundation
import PostgresNIO

/// A commit as a shared log's server holds it: its rows, and the `prev` and hash stored with it (nil
/// when the server holds none: a row that no append wrote).
public struct ChainedCommit: Sendable, Equatable {
    public var stored: StoredCommit
    public var prev: String?
    public var hash: String?

    public var positions: ClosedRange<LogPosition> { stored.positions }
}

/// A row of a shared log's `events`, with its commit's bounds, and, on the commit's first row, the
/// chain stored with the commit.
struct ServerRow {
    var event: RecordedEvent
    var commitFirst: LogPosition
    var commitLast: LogPosition
    var chained: Bool
    var prev: String?
    var hash: String?
}

/// What a catch-up checks first, in one round trip: the server's library, head and schema version, and
/// what it holds where this machine's copy ends.
public struct ServerStatus: Sendable {
    public var library: LibraryID
    public var head: LogPosition
    /// The hash of the server's last commit.
    public var headHash: String?
    public var schemaVersion: Int
    /// The server's event at the position asked about, and the hash stored with the commit that starts
    /// there or before it (nil when the server holds none there).
    public var event: RecordedEvent?
    public var commitHash: String?
}

/// A shared library's log as its server holds it, in one schema: the head, whole commits by position
/// with their chain, digests of what a machine holds, and blobs by hash.
public struct SharedLog {
    public let session: PostgresSession
    public let schema: String

    public init(session: PostgresSession, schema: String) throws {
        try PostgresSchema.validate(schema)
        self.session = session
        self.schema = schema
    }

    /// The library's id and its last position; ``SharedLogError/noSharedLibrary(server:schema:)`` when
    /// the schema holds none, ``PostgresSchema/Failure/newerSchema(schema:found:supported:)`` when it is
    /// newer than this build.
    public func head() throws -> (library: LibraryID, position: LogPosition) {
        let found = try status(at: .none)
        return (found.library, found.head)
    }

    /// The server's status, and what it holds at `position` (this machine's head): refused when the
    /// schema is newer than this build knows. A schema older than this build's is brought up to date
    /// first, when this role may; otherwise ``SharedLogError/olderSchema(schema:found:needed:)``.
    public func status(at position: LogPosition) throws -> ServerStatus {
        do {
            return try readStatus(at: position)
        } catch SharedLogError.statementFailed(_, let state, _) where ["42P01", "3F000", "42703"].contains(state) {
            // No tables, or a version-1 schema's: which one, then bring an old one up to date.
            guard let version = try PostgresSchema.appliedVersion(schema, on: session) else {
                throw SharedLogError.noSharedLibrary(server: "\(session.endpoint)", schema: schema)
            }
            try upgrade(from: version)
            return try readStatus(at: position)
        }
    }

    private func readStatus(at position: LogPosition) throws -> ServerStatus {
        let rows = try session.query("""
            SELECT h.library_id, h.position, h.hash, (SELECT max(version) FROM \(unescaped: schema).schema_versions), c.hash,
                \(unescaped: Self.columns("e"))
            FROM \(unescaped: schema).log_head h
            LEFT JOIN \(unescaped: schema).events e ON e.position = \(Int64(position.rawValue))
            LEFT JOIN \(unescaped: schema).commits c ON c.commit_first = e.commit_first
            """)
        guard let row = rows.first else { throw SharedLogError.noSharedLibrary(server: "\(session.endpoint)", schema: schema) }
        let (id, head, headHash, version, commitHash, eventPosition) = try row.decode((UUID, Int64, String?, Int, String?, Int64?).self)
        guard version <= PostgresSchema.version else {
            throw PostgresSchema.Failure.newerSchema(schema: schema, found: version, supported: PostgresSchema.version)
        }
        if version < PostgresSchema.version {
            try upgrade(from: version)
            return try readStatus(at: position)
        }
        return ServerStatus(
            library: LibraryID(id), head: LogPosition(UInt64(head)), headHash: headHash, schemaVersion: version,
            event: eventPosition == nil ? nil : try Self.row(row, from: 5).event, commitHash: commitHash)
    }

    /// Brings a schema at `version` to this build's, or says that this role may not.
    private func upgrade(from version: Int) throws {
        guard version < PostgresSchema.version else {
            throw PostgresSchema.Failure.newerSchema(schema: schema, found: version, supported: PostgresSchema.version)
        }
        do {
            let id = try session.query("SELECT library_id FROM \(unescaped: schema).log_head").first?.decode(UUID.self)
            try PostgresSchema.prepare(schema, libraryID: id.map(LibraryID.init) ?? LibraryID(), on: session)
        } catch let error as SharedLogError where error.kind == .denied {
            throw SharedLogError.olderSchema(schema: schema, found: version, needed: PostgresSchema.version)
        }
    }

    /// The whole commits that follow `position`, about `limit` events of them (more when one commit is
    /// larger), in order, through `end` at most (the server's head: rows past it are no append's);
    /// empty at the head. Positions are checked to follow on without a hole, and each commit comes with
    /// the chain the server stores for it.
    public func commits(after position: LogPosition, through end: LogPosition, limit: Int = 1000) throws -> [ChainedCommit] {
        guard position < end else { return [] }
        var rows = try rows(after: position, through: min(end, LogPosition(position.rawValue + UInt64(limit))))
        guard let last = rows.last else { return [] }
        if last.commitLast > last.event.position {
            if rows.first!.commitFirst == last.commitFirst {
                // One commit larger than the page: take it whole.
                rows += try self.rows(after: last.event.position, through: min(end, last.commitLast))
            } else {
                rows.removeAll { $0.commitFirst == last.commitFirst }
            }
        }
        var commits: [ChainedCommit] = []
        var expected = position.next
        var index = rows.startIndex
        while index < rows.endIndex {
            let first = rows[index]
            guard first.event.position == expected else {
                throw SharedLogError.chainBroken(position: expected, reason: "the server holds no event there")
            }
            guard first.commitFirst == expected, first.commitLast >= expected else {
                throw SharedLogError.chainBroken(position: expected, reason: "its commit is said to start at \(first.commitFirst)")
            }
            let end = index + Int(first.commitLast.rawValue - first.commitFirst.rawValue) + 1
            guard end <= rows.endIndex else {
                throw SharedLogError.chainBroken(position: expected, reason: "the server holds its commit only in part")
            }
            var events: [RecordedEvent] = []
            for row in rows[index..<end] {
                guard row.event.position == expected, row.commitFirst == first.commitFirst else {
                    throw SharedLogError.chainBroken(position: expected, reason: "the server holds no event there")
                }
                events.append(row.event)
                expected = expected.next
            }
            commits.append(ChainedCommit(stored: StoredCommit(events: events, chained: first.chained), prev: first.prev, hash: first.hash))
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

    /// The digest of each block of positions 1 through `end` (``RowDigest``), by block; a block the
    /// server holds no row of is missing. The server reads each row's stored digest through `end`,
    /// without sending the rows, once its catalog shows the digests are still made from the rows.
    func blockDigests(through end: LogPosition) throws -> [Int: String] {
        guard end > .none else { return [:] }
        if let what = try DigestColumns.expected.difference(in: schema, on: session) {
            throw SharedLogError.digestsAltered(schema: schema, what: what)
        }
        let blocks = RowDigest.block(of: end) + 1
        let rows = try session.query(PostgresQuery(unsafeSQL: RowDigest.blocksSQL(schema: schema, blocks: blocks, through: end)))
        var digests: [Int: String] = [:]
        for row in rows {
            let (block, digest) = try row.decode((Int, String?).self)
            digests[block] = digest
        }
        return digests
    }

    /// The server's rows from `start` through `end`, each with its commit's bounds and, on a commit's
    /// first row, its chain: what a block's digest covers, to find where a block differs.
    func rows(from start: LogPosition, through end: LogPosition) throws -> [ServerRow] {
        try rows(after: LogPosition(start.rawValue - 1), through: end)
    }

    /// The first position past the head that the server holds a row at (an event or a commit's chain),
    /// and how many events it holds past the head: rows no append wrote.
    public func rowsPastHead() throws -> (first: LogPosition, events: Int)? {
        let row = try session.query("""
            SELECT least((SELECT min(e.position) FROM \(unescaped: schema).events e WHERE e.position > h.position),
                         (SELECT min(c.commit_first) FROM \(unescaped: schema).commits c WHERE c.commit_last > h.position)),
                   (SELECT count(*) FROM \(unescaped: schema).events e WHERE e.position > h.position)
            FROM \(unescaped: schema).log_head h
            """).first
        guard let (first, count) = try row?.decode((Int64?, Int64).self), let first else { return nil }
        return (LogPosition(UInt64(max(first, 1))), Int(count))
    }

    /// The events past the head, in order, for `episodic log repair` to show what it sets aside.
    public func eventsPastHead() throws -> [RecordedEvent] {
        try session.query("""
            SELECT \(unescaped: Self.columns("e")) FROM \(unescaped: schema).events e, \(unescaped: schema).log_head h
            WHERE e.position > h.position ORDER BY e.position
            """).map { try Self.row($0, from: 0).event }
    }

    /// Moves the rows past the head into the schema's `set_aside` table; returns how many events and
    /// chain rows went.
    public func setAsidePastHead() throws -> Int {
        try session.query("SELECT \(unescaped: schema).set_aside_past_head()", waitsForOthers: true).first?.decode(Int.self) ?? 0
    }

    private func rows(after start: LogPosition, through end: LogPosition) throws -> [ServerRow] {
        try session.query("""
            SELECT \(unescaped: Self.columns("e")), c.prev, c.hash
            FROM \(unescaped: schema).events e LEFT JOIN \(unescaped: schema).commits c ON c.commit_first = e.position
            WHERE e.position > \(Int64(start.rawValue)) AND e.position <= \(Int64(end.rawValue))
            ORDER BY e.position
            """).map { row in
            var found = try Self.row(row, from: 0)
            let chain = Array(row).dropFirst(Self.columnNames.count)
            found.prev = try chain.first?.decode(String?.self) ?? nil
            found.hash = try chain.dropFirst().first?.decode(String?.self) ?? nil
            return found
        }
    }

    private static let columnNames = [
        "position", "commit_first", "commit_last", "chained", "stream", "stream_version", "type", "schema_version", "time_ms",
        "actor", "command_id", "undoes", "data", "blobs",
    ]

    /// The columns of an event, in the order ``row(_:from:)`` reads them.
    private static func columns(_ table: String) -> String {
        columnNames.map { "\(table).\($0)" }.joined(separator: ", ")
    }

    /// The event whose columns start at `offset` in `row`.
    private static func row(_ row: PostgresRow, from offset: Int) throws -> ServerRow {
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
            throw SharedLogError.chainBroken(position: at, reason: "the server's event is malformed")
        }
        let refs = try blobs.map { text in
            let parts = text.split(separator: ":")
            guard parts.count == 2, let size = Int(parts[1]), let ref = BlobRef(sha256: String(parts[0]), byteCount: size) else {
                throw SharedLogError.chainBroken(position: at, reason: "a blob reference is malformed")
            }
            return ref
        }
        let event = RecordedEvent(
            position: at, stream: streamID, streamVersion: version, type: type, schemaVersion: schemaVersion, timestamp: timestamp,
            actor: actor, commandID: CommandID(command), undoes: undoes.map { CommandID($0) }, blobs: refs, payload: Array(data.utf8))
        return ServerRow(event: event, commitFirst: LogPosition(UInt64(first)), commitLast: LogPosition(UInt64(last)), chained: chained)
    }

    /// Stores a blob's file bytes (an LZ4 frame) under its hash, once; storing it again changes nothing.
    public func upload(_ ref: BlobRef, stored bytes: [UInt8]) throws {
        try session.query("""
            SELECT \(unescaped: schema).put_blob(\(ref.sha256), \(Int64(ref.byteCount)), \(ByteBuffer(bytes: bytes)))
            """, waitsForOthers: true)
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
