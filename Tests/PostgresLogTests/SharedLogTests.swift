import CoreValues
import EventLog
import Foundation
import PostgresLog
import PostgresNIO
import Testing
import TestSupport

/// A new session with the test server.
func session() throws -> PostgresSession {
    try PostgresSession(PostgresEndpoint(url: PostgresServer.shared!.url))
}

/// Runs `body` on `count` threads at once and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread { body(index); group.leave() }
    }
    group.wait()
}

/// The shared log's schema and append on a real PostgreSQL server (see `PostgresServer`).
@Suite("Shared log on PostgreSQL", .enabled(if: try PostgresServer.isAvailable, "no PostgreSQL server could be started"))
struct SharedLogTests {
    /// A fresh library schema, prepared, and a session.
    func library() throws -> (String, PostgresSession) {
        let session = try session()
        let schema = PostgresServer.freshSchema()
        try PostgresSchema.prepare(schema, libraryID: LibraryID(), on: session)
        return (schema, session)
    }

    func commit(_ events: [(stream: String, type: String)], expecting: [StreamID: ExpectedVersion] = [:]) -> Commit {
        Commit(
            events: events.map { ProposedEvent(stream: StreamID(rawValue: $0.stream)!, type: $0.type, json: #"{"n":1}"#) },
            expectations: expecting, commandID: CommandID(UUID()), actor: "ana", timestamp: Timestamp(rawValue: 1_795_000_000_000)!)
    }

    func positions(_ schema: String, after: Int64, on session: PostgresSession) throws -> [Int64] {
        try session.query("SELECT position FROM \(unescaped: schema).events WHERE position > \(after) ORDER BY position LIMIT 1000")
            .map { try $0.decode(Int64.self) }
    }

    @Test("preparing a schema twice keeps its library id; a schema newer than this build is refused")
    func prepare() throws {
        let session = try session()
        let schema = PostgresServer.freshSchema(), id = LibraryID()
        #expect(try PostgresSchema.prepare(schema, libraryID: id, on: session) == id)
        #expect(try PostgresSchema.prepare(schema, libraryID: LibraryID(), on: session) == id)

        try session.query("INSERT INTO \(unescaped: schema).schema_versions (version) VALUES (99)")
        #expect(throws: PostgresSchema.Failure.newerSchema(schema: schema, found: 99, supported: PostgresSchema.version)) {
            try PostgresSchema.prepare(schema, libraryID: id, on: session)
        }
        #expect(throws: PostgresSchema.Failure.invalidSchemaName("a; DROP")) { try PostgresSchema.validate("a; DROP") }
    }

    @Test("eight writers append at once while a reader tails the log: no hole, nothing missed, versions never repeat")
    func gaplessUnderConcurrentWriters() throws {
        let (schema, reader) = try library()
        let writers = 8, commitsEach = 25
        let failures = Counter()
        let appending = Thread { [self] in
            onThreads(writers) { writer in
                do {
                    let session = try session()
                    for n in 0..<commitsEach {
                        // Two events, one in a stream of its own and one in a stream everyone shares.
                        _ = try PostgresAppend.appendAtHead(
                            commit([("episode-\(writer)-\(n)", "Made"), ("podcast-shared", "Touched")]), schema: schema, on: session)
                    }
                } catch {
                    failures.add()
                }
            }
        }
        appending.start()
        // The reader requires each page to continue the last position, as a catch-up does.
        var last: Int64 = 0
        let total = Int64(writers * commitsEach * 2)
        let deadline = ContinuousClock.now + .seconds(60)
        while last < total, ContinuousClock.now < deadline {
            for position in try positions(schema, after: last, on: reader) {
                #expect(position == last + 1, "a hole after position \(last)")
                last = position
            }
        }
        #expect(failures.value == 0)
        #expect(last == total)
        let versions = try reader.query(
            "SELECT stream_version FROM \(unescaped: schema).events WHERE stream = 'podcast-shared' ORDER BY position"
        ).map { try $0.decode(Int.self) }
        #expect(versions == Array(1...(writers * commitsEach)))
    }

    @Test("two writers with the same expected version: exactly one wins; the other's conflict names the stream and both versions")
    func oneWinner() throws {
        let (schema, session) = try library()
        let stream = StreamID(rawValue: "episode-1")!
        let results = Results()
        onThreads(2) { [self] _ in
            do {
                _ = try PostgresAppend.appendAtHead(
                    commit([("episode-1", "EpisodeCreated")], expecting: [stream: .noStream]), schema: schema, on: PostgresLogTests.session())
                results.add(nil)
            } catch {
                results.add(error)
            }
        }
        #expect(results.errors.count == 1)
        #expect(results.errors.first as? EventLogError == .versionConflict(stream: stream, expected: .noStream, actual: 1))
        #expect(try positions(schema, after: 0, on: session) == [1])
    }

    @Test("a key is held by one stream at a time across the team, and can be released and taken again")
    func claims() throws {
        let (schema, session) = try library()
        let a = StreamID(rawValue: "podcast-a")!, b = StreamID(rawValue: "podcast-b")!
        func hold(_ stream: StreamID) -> ClaimChange { ClaimChange(.hold, kind: "podcast-name", stream: stream, key: "release notes") }
        _ = try PostgresAppend.appendAtHead(commit([("podcast-a", "PodcastCreated")]), claims: [hold(a)], schema: schema, on: session)
        #expect(throws: PostgresAppendError.claimTaken) {
            _ = try PostgresAppend.appendAtHead(commit([("podcast-b", "PodcastCreated")]), claims: [hold(b)], schema: schema, on: session)
        }
        #expect(try positions(schema, after: 0, on: session) == [1], "the refused commit appended nothing")
        // A stream that takes another key gives up its old one.
        var renamed = hold(a)
        renamed.key = "other"
        _ = try PostgresAppend.appendAtHead(commit([("podcast-a", "PodcastRenamed")]), claims: [renamed], schema: schema, on: session)
        _ = try PostgresAppend.appendAtHead(commit([("podcast-b", "PodcastCreated")]), claims: [hold(b)], schema: schema, on: session)
        #expect(throws: PostgresAppendError.claimTaken) {
            _ = try PostgresAppend.appendAtHead(
                commit([("podcast-a", "PodcastRenamed")]), claims: [ClaimChange(.rekey, kind: "podcast-name", stream: a, key: "release notes")],
                schema: schema, on: session)
        }
        _ = try PostgresAppend.appendAtHead(
            commit([("podcast-b", "PodcastDeleted")]), claims: [ClaimChange(.release, kind: "podcast-name", stream: b)], schema: schema, on: session)
        _ = try PostgresAppend.appendAtHead(
            commit([("podcast-a", "PodcastRenamed")]), claims: [ClaimChange(.rekey, kind: "podcast-name", stream: a, key: "release notes")],
            schema: schema, on: session)
        #expect(try positions(schema, after: 0, on: session) == [1, 2, 3, 4, 5])
    }

    @Test("events never change, and a commit naming a blob the server lacks is refused whole")
    func appendOnlyAndBlobs() throws {
        let (schema, session) = try library()
        _ = try PostgresAppend.appendAtHead(commit([("episode-1", "EpisodeCreated")]), schema: schema, on: session)
        #expect(throws: SharedLogError.self) { try session.query("UPDATE \(unescaped: schema).events SET type = 'Forged'") }
        #expect(throws: SharedLogError.self) { try session.query("DELETE FROM \(unescaped: schema).events") }
        let missing = BlobRef(sha256: String(repeating: "ab", count: 32), byteCount: 3)!
        var withBlob = commit([("episode-1", "TranscriptImported")])
        withBlob.events[0].blobs = [missing]
        #expect(throws: PostgresAppendError.blobMissing(sha256: missing.sha256)) {
            _ = try PostgresAppend.appendAtHead(withBlob, schema: schema, on: session)
        }
        #expect(try positions(schema, after: 0, on: session) == [1])
    }

    @Test("a client killed with SIGKILL in the middle of an append leaves the head as it was and the lock free; a wait for it ends at the lock timeout")
    func killedMidAppend() throws {
        let (schema, session) = try library()
        _ = try PostgresAppend.appendAtHead(commit([("episode-1", "EpisodeCreated")]), schema: schema, on: session)
        // A client that appends after the head, then sleeps inside the same transaction: it holds the head's lock.
        let head = try session.query("SELECT hash FROM \(unescaped: schema).log_head").first!.decode(String.self)
        let sql = """
            BEGIN;
            SELECT \(schema).append('{}', '{}', ARRAY['episode-2'], ARRAY['EpisodeCreated'], ARRAY[1], ARRAY['{}'],
                ARRAY[''], 0, 'killed', gen_random_uuid(), NULL, true, '{}', '{}', '{}', '{}', '{}',
                '\(head)', '\(String(repeating: "0", count: 64))', 1000);
            SELECT pg_sleep(60);
            """
        let pid = try #require(PostgresServer.shared!.startClient(running: sql))
        // Wait until it is asleep, holding the lock: an append with a short lock timeout then fails.
        var holding = false
        for _ in 0..<100 where !holding {
            Thread.sleep(forTimeInterval: 0.05)
            holding = try session.query(
                "SELECT count(*)::int FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' AND state = 'active' AND pid <> pg_backend_pid()"
            ).first?.decode(Int.self) ?? 0 > 0
        }
        #expect(holding, "the killed client never reached its sleep")
        let impatient = try PostgresSession(PostgresEndpoint(url: PostgresServer.shared!.url), lockWait: .milliseconds(200))
        let started = ContinuousClock.now
        #expect(throws: SharedLogError.lockTimedOut(server: "\(impatient.endpoint)", waited: "0.2 s"), "the client holds the head's lock") {
            _ = try PostgresAppend.appendAtHead(commit([("episode-3", "EpisodeCreated")]), schema: schema, on: impatient)
        }
        #expect(ContinuousClock.now - started < .seconds(5), "the wait ended at the lock timeout")

        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let next = try PostgresAppend.appendAtHead(commit([("episode-3", "EpisodeCreated")]), schema: schema, on: session)
        #expect(next == LogPosition(2)...LogPosition(2), "the killed append left no position behind")
        #expect(try positions(schema, after: 0, on: session) == [1, 2])
    }
}

/// A count several threads add to.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// What several threads' attempts ended in: nil for a success.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var all: [(any Error)?] = []
    func add(_ error: (any Error)?) { lock.withLock { all.append(error) } }
    var errors: [any Error] { lock.withLock { all.compactMap { $0 } } }
}

@Suite("TLS to the shared library's server", .enabled(if: try PostgresServer.speaksTLS, "no PostgreSQL server with TLS could be started"))
struct SharedLogTLSTests {
    @Test("sslmode=require talks TLS to the server; sslmode=disable does not")
    func tls() throws {
        let url = PostgresServer.shared!.tlsURL!
        func ssl(_ url: String) throws -> Bool {
            try PostgresSession(PostgresEndpoint(url: url))
                .query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").first!.decode(Bool.self)
        }
        #expect(try ssl(url))
        #expect(try !ssl(url.replacingOccurrences(of: "sslmode=require", with: "sslmode=disable")))
    }
}
