import CoreValues
import EventLog
import Foundation
import PostgresNIO

/// Appending a commit to a shared library's log: one call of the schema's `append` function, whose
/// first statement takes the head row's lock, so positions are gapless and in commit order.
public enum PostgresAppend {
    /// Appends `commit` to the log in `schema`, with its claims, in one transaction. Returns the
    /// positions of its events; they are durable once this returns (the server committed with its own
    /// fsync). `chained: false` only for a pushed commit written before the chain.
    ///
    /// Refusals: ``EventLogError/versionConflict(stream:expected:actual:)``,
    /// ``PostgresAppendError/claimTaken``, ``PostgresAppendError/blobMissing(sha256:)``.
    public static func append(
        _ commit: Commit, claims: [ClaimChange] = [], chained: Bool = true, schema: String, on session: PostgresSession
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
        let query: PostgresQuery = """
            SELECT \(unescaped: schema).append(
                \(expectedStreams)::text[], \(expectedVersions)::integer[],
                \(eventStreams)::text[], \(types)::text[], \(schemaVersions)::integer[], \(data)::text[], \(blobs)::text[],
                \(commit.timestamp.rawValue)::bigint, \(commit.actor)::text, \(commit.commandID.rawValue)::uuid,
                \(commit.undoes?.rawValue)::uuid, \(chained)::boolean,
                \(actions)::text[], \(kinds)::text[], \(streams)::text[], \(scopes)::text[], \(keys)::text[])
            """
        do {
            let first = try session.query(query).first?.decode(Int64.self) ?? 0
            return LogPosition(UInt64(first))...LogPosition(UInt64(first) + UInt64(events.count) - 1)
        } catch let error as PSQLError {
            throw Self.refusal(error) ?? error
        }
    }

    /// The refusal a server error stands for, by its SQLSTATE; nil for any other error.
    static func refusal(_ error: PSQLError) -> (any Error)? {
        let message = error.serverInfo?[.message] ?? ""
        switch error.serverInfo?[.sqlState] {
        case "EPCON":
            let parts = message.split(separator: "|", omittingEmptySubsequences: false)
            guard parts.count == 3, let stream = StreamID(rawValue: String(parts[0])), let expected = Int(parts[1]),
                let actual = Int(parts[2])
            else { return nil }
            return EventLogError.versionConflict(stream: stream, expected: expected == 0 ? .noStream : .exactly(expected), actual: actual)
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

    public var kind: ErrorKind { .busy }

    public var description: String {
        switch self {
        case .claimTaken: "another item already holds a name or number this change takes."
        case .blobMissing(let sha256): "the shared library has no blob \(sha256); it must be uploaded before the change that refers to it."
        }
    }
}
