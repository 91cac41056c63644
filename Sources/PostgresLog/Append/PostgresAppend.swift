import CoreValues
import EventLog
import Foundation
import PostgresNIO

/// Appending a commit to a shared library's log: one call of the schema's `append` function, whose
/// first statement takes the head row's lock, so positions are gapless and in commit order, and which
/// takes the commit only if it continues the chain from the head.
public enum PostgresAppend {
    /// `commit` as it will be stored from `first` on, after the commit hashed `previous` (its `prev`),
    /// and its own hash: what ``append(_:claims:chained:after:hash:schema:on:)`` sends.
    public static func chained(
        _ commit: Commit, at first: LogPosition, after previous: String, chained: Bool = true,
        versionsBefore: (StreamID) throws -> Int
    ) rethrows -> (stored: StoredCommit, hash: String) {
        var stored = try StoredCommit(commit, at: first, versionsBefore: versionsBefore)
        stored.chained = chained
        var digest = ChainDigest(after: previous)!
        digest.add(stored)
        return (stored, digest.hex)
    }

    /// Appends `commit` to the log in `schema`, with its claims, in one transaction, if the server's
    /// head is the commit hashed `previous`; `hash` is the commit's own hash at the positions that
    /// follow (``chained(_:at:after:chained:versionsBefore:)``). Returns the positions of its events;
    /// they are durable once this returns (the server committed with its own fsync). `chained: false`
    /// only for a pushed commit written before the chain. The wait for the head's lock is at most the
    /// session's lock wait.
    ///
    /// Refusals: ``EventLogError/versionConflict(stream:expected:actual:)``,
    /// ``PostgresAppendError/claimTaken``, ``PostgresAppendError/blobMissing(sha256:)``,
    /// ``PostgresAppendError/behindHead(head:hash:)``, ``SharedLogError/rowsPastHead(position:)``.
    public static func append(
        _ commit: Commit, claims: [ClaimChange] = [], chained: Bool = true, after previous: String, hash: String,
        schema: String, on session: PostgresSession
    ) throws -> ClosedRange<LogPosition> {
        try PostgresSchema.validate(schema)
        let events = commit.events
        var expectedStreams: [String] = [], expectedVersions: [Int] = []
        for (stream, expectation) in commit.expectations.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            switch expectation {
            case .any: continue
            case .noStream: expectedStreams.append(stream.rawValue); expectedVersions.append(0)
            case .exactly(let version): expectedStreams.append(stream.rawValue); expectedVersions.append(version)
            }
        }
        let eventStreams = events.map { $0.stream.rawValue }, types = events.map { $0.type }
        let schemaVersions = events.map { $0.schemaVersion }, data = events.map { String(decoding: $0.payload, as: UTF8.self) }
        let blobs = events.map { $0.blobs.map { "\($0.sha256):\($0.byteCount)" }.joined(separator: ",") }
        let actions = claims.map(\.action.rawValue), kinds = claims.map(\.kind), streams = claims.map(\.stream.rawValue)
        let scopes = claims.map(\.scope), keys = claims.map(\.key)
        let waitMilliseconds = Int(min(session.lockWait.nanoseconds / 1_000_000, Int64(Int32.max)))
        let query: PostgresQuery = """
            SELECT \(unescaped: schema).append(
                \(expectedStreams)::text[], \(expectedVersions)::integer[],
                \(eventStreams)::text[], \(types)::text[], \(schemaVersions)::integer[], \(data)::text[], \(blobs)::text[],
                \(commit.timestamp.rawValue)::bigint, \(commit.actor)::text, \(commit.commandID.rawValue)::uuid,
                \(commit.undoes?.rawValue)::uuid, \(chained)::boolean,
                \(actions)::text[], \(kinds)::text[], \(streams)::text[], \(scopes)::text[], \(keys)::text[],
                \(previous)::text, \(hash)::text, \(waitMilliseconds)::integer)
            """
        do {
            let first = try session.query(query, waitsForOthers: true).first?.decode(Int64.self) ?? 0
            return LogPosition(UInt64(first))...LogPosition(UInt64(first) + UInt64(events.count) - 1)
        } catch SharedLogError.statementFailed(let server, let state, let message) {
            throw Self.refusal(state: state, message: message) ?? SharedLogError.statementFailed(server: server, state: state, message: message)
        }
    }

    /// Appends `commit` after whatever the server's head is, for a client that keeps no copy of the log
    /// (a benchmark, a test): reads the head and the versions of the commit's streams, and goes again
    /// when another commit comes first.
    public static func appendAtHead(
        _ commit: Commit, claims: [ClaimChange] = [], schema: String, on session: PostgresSession
    ) throws -> ClosedRange<LogPosition> {
        try PostgresSchema.validate(schema)
        let streams = Array(Set(commit.events.map(\.stream.rawValue)))
        for attempt in 1...Self.attemptsAtHead {
            let rows = try session.query("""
                SELECT h.position, h.hash, s.stream, s.version FROM \(unescaped: schema).log_head h
                LEFT JOIN \(unescaped: schema).streams s ON s.stream = ANY(\(streams)::text[])
                """)
            var head: Int64 = 0, previous = "", versions: [String: Int] = [:]
            for row in rows {
                let (position, hash, stream, version) = try row.decode((Int64, String, String?, Int?).self)
                (head, previous) = (position, hash)
                if let stream, let version { versions[stream] = version }
            }
            let (_, hash) = chained(
                commit, at: LogPosition(UInt64(head) + 1), after: previous, versionsBefore: { versions[$0.rawValue] ?? 0 })
            do {
                return try append(commit, claims: claims, after: previous, hash: hash, schema: schema, on: session)
            } catch PostgresAppendError.behindHead where attempt < Self.attemptsAtHead {
                continue
            }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    /// How many times ``appendAtHead(_:claims:schema:on:)`` goes again after other commits came first.
    static let attemptsAtHead = 1000

    /// The refusal a server error stands for, by its SQLSTATE; nil for any other error.
    static func refusal(state: String, message: String) -> (any Error)? {
        // A message raised by `append` itself is its first line; PostgreSQL adds context after it.
        let message = String(message.prefix { $0 != " " && $0 != "\n" })
        switch state {
        case "EPCON":
            let parts = message.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count == 3, let stream = StreamID(rawValue: String(parts[0])), let expected = Int(parts[1]),
                let actual = Int(parts[2])
            else { return nil }
            return EventLogError.versionConflict(stream: stream, expected: ExpectedVersion(after: expected), actual: actual)
        case "EPCHN":
            let parts = message.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count == 2, let head = UInt64(parts[0]) else { return nil }
            return PostgresAppendError.behindHead(head: LogPosition(head), hash: String(parts[1]))
        case "EPROW":
            return UInt64(message).map { SharedLogError.rowsPastHead(position: LogPosition($0)) }
        case "23505": return PostgresAppendError.claimTaken
        case "EPBLB": return PostgresAppendError.blobMissing(sha256: message)
        case "EPEMP": return EventLogError.emptyCommit
        default: return nil
        }
    }
}

/// What the shared log refuses an append for, besides a version conflict (an `EventLogError`).
public enum PostgresAppendError: Error, Equatable, Sendable, ClassifiedError, CustomStringConvertible {
    /// Another stream holds one of the keys the commit claims: decide again on a fresh copy.
    case claimTaken
    /// The commit refers to a blob the server does not have: upload it, then append again.
    case blobMissing(sha256: String)
    /// The server's log has moved on from the commit this one said it follows: its head is now `head`,
    /// hashed `hash`. Catch up and send it again after that head.
    case behindHead(head: LogPosition, hash: String)

    public var kind: ErrorKind { .busy }

    public var description: String {
        switch self {
        case .claimTaken: "another item already holds a name or number this change takes."
        case .blobMissing(let sha256): "the shared library has no blob \(sha256); it must be uploaded before the change that refers to it."
        case .behindHead(let head, _):
            "the shared library's log moved on to position \(head) while this change was sent; nothing was written, try again."
        }
    }
}
