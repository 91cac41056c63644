import CoreValues
import EventLog
import Foundation
import Logging
import PostgresNIO

/// A uniqueness a rule needs across the whole team, reserved in the same transaction as the append:
/// a podcast's name, an episode's number in its podcast. Held by one stream at a time.
public struct Claim: Hashable, Sendable {
    public var kind: String
    /// What the key is unique within: empty for the whole library, a podcast's stream for its numbers.
    public var scope: String
    public var key: String

    public init(kind: String, scope: String = "", key: String) {
        (self.kind, self.scope, self.key) = (kind, scope, key)
    }
}

/// What the shared log refuses an append for, besides a version conflict (an `EventLogError`).
public enum PostgresAppendError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another stream holds one of the claims the commit takes.
    case claimTaken
    /// The commit refers to a blob the server does not have: upload it, then append again.
    case blobMissing(sha256: String)

    public var description: String {
        switch self {
        case .claimTaken: "another entity already holds a name or number this change takes."
        case .blobMissing(let sha256): "the shared library has no blob \(sha256); it must be uploaded before the change that refers to it."
        }
    }
}

/// Appending a commit to a shared library's log: one call of the schema's `append` function, whose
/// first statement takes the head row's lock, so positions are gapless and in commit order.
public enum PostgresAppend {
    /// Appends `commit` to the log in `schema`, taking and releasing `claims` for `stream`s in the same
    /// transaction. Returns the positions of its events; they are durable once this returns (the
    /// server committed with its own fsync).
    public static func append(
        _ commit: Commit, taking: [(Claim, StreamID)] = [], releasing: [Claim] = [], schema: String,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> ClosedRange<LogPosition> {
        try PostgresSchema.validate(schema)
        let events = commit.events
        var expectedStreams: [String] = [], expectedVersions: [Int] = []
        for (stream, expectation) in commit.expectations.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            switch expectation {
            case .any: continue
            case .noStream: (expectedStreams, expectedVersions) = (expectedStreams + [stream.rawValue], expectedVersions + [0])
            case .exactly(let version): (expectedStreams, expectedVersions) = (expectedStreams + [stream.rawValue], expectedVersions + [version])
            }
        }
        let eventStreams = events.map { $0.stream.rawValue }, types = events.map { $0.type }
        let schemaVersions = events.map { $0.schemaVersion }, data = events.map { String(decoding: $0.payload, as: UTF8.self) }
        let blobs = events.map { $0.blobs.map { $0.sha256 }.joined(separator: ",") }
        let takeKinds = taking.map { $0.0.kind }, takeScopes = taking.map { $0.0.scope }, takeKeys = taking.map { $0.0.key }
        let takeStreams = taking.map { $0.1.rawValue }
        let releaseKinds = releasing.map { $0.kind }, releaseScopes = releasing.map { $0.scope }, releaseKeys = releasing.map { $0.key }
        let query: PostgresQuery = """
            SELECT \(unescaped: schema).append(
                \(expectedStreams)::text[], \(expectedVersions)::integer[],
                \(eventStreams)::text[], \(types)::text[], \(schemaVersions)::integer[], \(data)::text[], \(blobs)::text[],
                \(commit.timestamp.rawValue)::bigint, \(commit.actor)::text, \(commit.commandID.rawValue)::uuid,
                \(commit.undoes?.rawValue)::uuid,
                \(takeKinds)::text[], \(takeScopes)::text[], \(takeKeys)::text[], \(takeStreams)::text[],
                \(releaseKinds)::text[], \(releaseScopes)::text[], \(releaseKeys)::text[])
            """
        do {
            var first: Int64 = 0
            for try await position in try await connection.query(query, logger: logger).decode(Int64.self) { first = position }
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
