import CoreValues
import EventLog
import Foundation
import Logging
import PostgresNIO
import PostgresLog
import Testing

/// CI sets `EPISODIC_REQUIRE_POSTGRES=1`: there the PostgreSQL tests must run, never be skipped.
@Test("a PostgreSQL server can be started where one is required")
func postgresServerWhereRequired() {
    guard ProcessInfo.processInfo.environment["EPISODIC_REQUIRE_POSTGRES"] == "1" else { return }
    #expect(PostgresServer.shared != nil, "no PostgreSQL server could be started: \(PostgresServer.unavailable ?? "")")
}

/// The shared log's schema and append on a real PostgreSQL server (see `PostgresServer`).
@Suite("Shared log on PostgreSQL", .enabled(if: PostgresServer.isAvailable, "no PostgreSQL server could be started"))
struct SharedLogTests {
    let logger = PostgresServer.logger

    /// Runs `body` with a fresh library schema, prepared, and a connection, closed afterwards (a
    /// connection must be closed before it is released).
    func withLibrary(_ body: (String, PostgresConnection) async throws -> Void) async throws {
        try await withConnection { connection in
            let schema = PostgresServer.freshSchema()
            try await PostgresSchema.prepare(schema, libraryID: UUID(), on: connection, logger: logger)
            try await body(schema, connection)
        }
    }

    func withConnection(_ body: (PostgresConnection) async throws -> Void) async throws {
        let connection = try await PostgresServer.shared!.connect()
        do {
            try await body(connection)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    func commit(_ events: [(stream: String, type: String)], expecting: [StreamID: ExpectedVersion] = [:]) -> Commit {
        Commit(
            events: events.map { ProposedEvent(stream: StreamID(rawValue: $0.stream)!, type: $0.type, json: #"{"n":1}"#) },
            expectations: expecting, commandID: CommandID(UUID()), actor: "ana", timestamp: Timestamp(rawValue: 1_795_000_000_000)!)
    }

    func positions(_ schema: String, after: Int64, on connection: PostgresConnection) async throws -> [Int64] {
        var found: [Int64] = []
        let rows = try await connection.query(
            "SELECT position FROM \(unescaped: schema).events WHERE position > \(after) ORDER BY position LIMIT 1000", logger: logger)
        for try await position in rows.decode(Int64.self) { found.append(position) }
        return found
    }

    @Test("preparing a schema twice keeps its library id; a schema newer than this build is refused")
    func prepare() async throws {
        try await withConnection { connection in
        let schema = PostgresServer.freshSchema(), id = UUID()
        let created = try await PostgresSchema.prepare(schema, libraryID: id, on: connection, logger: logger)
        #expect(created == id)
        let reopened = try await PostgresSchema.prepare(schema, libraryID: UUID(), on: connection, logger: logger)
        #expect(reopened == id)

        try await connection.query("INSERT INTO \(unescaped: schema).schema_versions (version) VALUES (99)", logger: logger)
        await #expect(throws: PostgresSchema.Failure.newerSchema(schema: schema, found: 99, supported: PostgresSchema.version)) {
            try await PostgresSchema.prepare(schema, libraryID: id, on: connection, logger: logger)
        }
        #expect(throws: PostgresSchema.Failure.invalidSchemaName("a; DROP")) { try PostgresSchema.validate("a; DROP") }
        }
    }

    @Test("eight writers append at once while a reader tails the log: no hole, nothing missed, versions never repeat")
    func gaplessUnderConcurrentWriters() async throws {
        try await withLibrary { schema, reader in
        let writers = 8, commitsEach = 25
        async let appended: Void = withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    try await withConnection { connection in
                        for n in 0..<commitsEach {
                            // Two events, one in a stream of its own and one in a stream everyone shares.
                            _ = try await PostgresAppend.append(
                                commit([("episode-\(writer)-\(n)", "Made"), ("podcast-shared", "Touched")]), schema: schema,
                                on: connection, logger: logger)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        // The reader requires each page to continue the last position, as a catch-up does.
        var last: Int64 = 0
        let total = Int64(writers * commitsEach * 2)
        let deadline = ContinuousClock.now + .seconds(60)
        while last < total, ContinuousClock.now < deadline {
            let page = try await positions(schema, after: last, on: reader)
            for position in page {
                #expect(position == last + 1, "a hole after position \(last)")
                last = position
            }
        }
        try await appended
        #expect(last == total)
        var versions: [Int] = []
        for try await version in try await reader.query(
            "SELECT stream_version FROM \(unescaped: schema).events WHERE stream = 'podcast-shared' ORDER BY position", logger: logger
        ).decode(Int.self) { versions.append(version) }
        #expect(versions == Array(1...(writers * commitsEach)))
        }
    }

    @Test("two writers with the same expected version: exactly one wins; the other's conflict names the stream and both versions")
    func oneWinner() async throws {
        try await withLibrary { schema, connection in
        try await withConnection { other in
        let stream = StreamID(rawValue: "episode-1")!
        func attempt(on connection: PostgresConnection) async -> Result<ClosedRange<LogPosition>, any Error> {
            do {
                return .success(try await PostgresAppend.append(
                    commit([("episode-1", "EpisodeCreated")], expecting: [stream: .noStream]), schema: schema, on: connection,
                    logger: logger))
            } catch {
                return .failure(error)
            }
        }
        async let first = attempt(on: connection)
        async let second = attempt(on: other)
        let results = await [first, second]
        #expect(results.filter { if case .success = $0 { true } else { false } }.count == 1)
        let failure = results.compactMap { if case .failure(let error) = $0 { error } else { nil } }.first
        #expect(failure as? EventLogError == .versionConflict(stream: stream, expected: .noStream, actual: 1))
        let logged = try await positions(schema, after: 0, on: connection)
        #expect(logged == [1])
        }
        }
    }

    @Test("a claim is held by one stream at a time across the team, and can be released and taken again")
    func claims() async throws {
        try await withLibrary { schema, connection in
        let name = Claim(kind: "podcast-name", key: "release notes")
        let a = StreamID(rawValue: "podcast-a")!, b = StreamID(rawValue: "podcast-b")!
        _ = try await PostgresAppend.append(commit([("podcast-a", "PodcastCreated")]), taking: [(name, a)], schema: schema, on: connection, logger: logger)
        await #expect(throws: PostgresAppendError.claimTaken) {
            _ = try await PostgresAppend.append(commit([("podcast-b", "PodcastCreated")]), taking: [(name, b)], schema: schema, on: connection, logger: logger)
        }
        let afterRefusal = try await positions(schema, after: 0, on: connection)
        #expect(afterRefusal == [1], "the refused commit appended nothing")
        _ = try await PostgresAppend.append(commit([("podcast-a", "PodcastRenamed")]), releasing: [name], schema: schema, on: connection, logger: logger)
        _ = try await PostgresAppend.append(commit([("podcast-b", "PodcastCreated")]), taking: [(name, b)], schema: schema, on: connection, logger: logger)
        let logged = try await positions(schema, after: 0, on: connection)
        #expect(logged == [1, 2, 3])
        }
    }

    @Test("events never change, and a commit naming a blob the server lacks is refused whole")
    func appendOnlyAndBlobs() async throws {
        try await withLibrary { schema, connection in
        _ = try await PostgresAppend.append(commit([("episode-1", "EpisodeCreated")]), schema: schema, on: connection, logger: logger)
        await #expect(throws: PSQLError.self) {
            try await connection.query("UPDATE \(unescaped: schema).events SET type = 'Forged'", logger: logger)
        }
        await #expect(throws: PSQLError.self) {
            try await connection.query("DELETE FROM \(unescaped: schema).events", logger: logger)
        }
        let missing = BlobRef(sha256: String(repeating: "ab", count: 32), byteCount: 3)!
        var withBlob = commit([("episode-1", "TranscriptImported")])
        withBlob.events[0].blobs = [missing]
        await #expect(throws: PostgresAppendError.blobMissing(sha256: missing.sha256)) {
            _ = try await PostgresAppend.append(withBlob, schema: schema, on: connection, logger: logger)
        }
        let logged = try await positions(schema, after: 0, on: connection)
        #expect(logged == [1])
        }
    }

    @Test("a client killed with SIGKILL in the middle of an append leaves the head as it was and the lock free")
    func killedMidAppend() async throws {
        try await withLibrary { schema, connection in
            _ = try await PostgresAppend.append(commit([("episode-1", "EpisodeCreated")]), schema: schema, on: connection, logger: logger)
            // A client that appends, then sleeps inside the same transaction: it holds the head's lock.
            let sql = """
                BEGIN;
                SELECT \(schema).append('{}', '{}', ARRAY['episode-2'], ARRAY['EpisodeCreated'], ARRAY[1], ARRAY['{}'],
                    ARRAY[''], 0, 'killed', gen_random_uuid(), NULL, '{}', '{}', '{}', '{}', '{}', '{}', '{}');
                SELECT pg_sleep(60);
                """
            let pid = try #require(PostgresServer.shared!.startClient(running: sql))
            // Wait until it is asleep, holding the lock: an append with a short lock timeout then fails.
            var holding = false
            for _ in 0..<100 where !holding {
                try await Task.sleep(for: .milliseconds(50))
                var sleeping = 0
                for try await count in try await connection.query(
                    "SELECT count(*)::int FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' AND state = 'active' AND pid <> pg_backend_pid()",
                    logger: logger
                ).decode(Int.self) { sleeping = count }
                holding = sleeping > 0
            }
            #expect(holding, "the killed client never reached its sleep")
            try await connection.query("SET lock_timeout = '200ms'", logger: logger)
            await #expect(throws: PSQLError.self, "the client holds the head's lock") {
                _ = try await PostgresAppend.append(self.commit([("episode-3", "EpisodeCreated")]), schema: schema, on: connection, logger: self.logger)
            }

            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            try await connection.query("SET lock_timeout = '10s'", logger: logger)
            let next = try await PostgresAppend.append(commit([("episode-3", "EpisodeCreated")]), schema: schema, on: connection, logger: logger)
            #expect(next == LogPosition(2)...LogPosition(2), "the killed append left no position behind")
            let logged = try await positions(schema, after: 0, on: connection)
            #expect(logged == [1, 2])
        }
    }
}
