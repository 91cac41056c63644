import CoreValues
import Episodic
import EventLog
import Foundation
import PodcastDomain
import PostgresLog
import PostgresNIO
import Testing
import TestSupport

/// A shared library written by a build of schema version 1, which stored no hashes, met by this build:
/// the first command of a role that may upgrade the schema brings it to this build's version, computing
/// each commit's hash from its rows, and every machine's copy, byte for byte the originals, goes on.
@Suite("A shared library's schema upgraded", .enabled(if: try PostgresServer.isAvailable, "no PostgreSQL server could be started"))
struct SharedSchemaUpgradeTests {
    let folder = TemporaryFolder("episodic-shared-upgrade")
    let schema = PostgresServer.freshSchema()
    var url: String { PostgresServer.shared!.url }

    /// A library of one's own at `path` with podcasts `names`, its log pushed as a build of version 1
    /// pushed it: the tables of `0001-log.sql` alone, each commit through version 1's `append`.
    func pushedByVersion1(_ names: [String], at path: String) throws {
        let library = try Library.create(at: path)
        for name in names {
            let id = PodcastID(UUID())
            _ = try library.submit([Submission(.podcast(.id(id), .create(id: id, name: name, at: .now)))], actor: "ana").results[0].get()
        }
        let log = try EventLog(at: path)
        let id = try #require(log.libraryID)
        let version1 = try String(contentsOfFile: RepositoryFiles.path("schemas/postgres/0001-log.sql"), encoding: .utf8)
        #expect(PostgresServer.shared!.run(sql: """
            CREATE SCHEMA \(schema); SET search_path TO \(schema);
            \(version1)
            CREATE TABLE schema_versions (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
            INSERT INTO schema_versions (version) VALUES (1);
            INSERT INTO log_head (library_id) VALUES ('\(id.uuid.uuidString.lowercased())');
            """) == 0)
        let session = try PostgresSession(PostgresEndpoint(url: url))
        try log.readCommits(from: LogPosition(1)) { stored in
            let commit = stored.commit
            let events = commit.events
            let expected = commit.expectations.sorted { $0.key.rawValue < $1.key.rawValue }
            let streams = expected.map(\.key.rawValue)
            let versions = expected.map { if case .exactly(let v) = $0.value { v } else { 0 } }
            try session.query("""
                SELECT \(unescaped: schema).append(\(streams)::text[], \(versions)::integer[],
                    \(events.map(\.stream.rawValue))::text[], \(events.map(\.type))::text[], \(events.map(\.schemaVersion))::integer[],
                    \(events.map { String(decoding: $0.payload, as: UTF8.self) })::text[], \(events.map { _ in "" })::text[],
                    \(commit.timestamp.rawValue)::bigint, \(commit.actor)::text, \(commit.commandID.rawValue)::uuid, NULL::uuid,
                    \(stored.chained)::boolean, '{}'::text[], '{}'::text[], '{}'::text[], '{}'::text[], '{}'::text[])
                """)
        }
        let location = try SharedLocation(url: url, schema: schema)
        try SharedLibraryFile(endpoint: location.endpoint, schema: schema).save(in: log)
    }

    func logBytes(_ path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try EventLog(at: path).read(from: LogPosition(1)) { bytes += Array($0.line) + [0x0A] }
        return bytes
    }

    @Test("the owner's first command upgrades a version-1 schema: the hashes computed from the rows are every copy's, and both machines go on")
    func upgradedByTheOwner() throws {
        // Given a version-1 shared library, and a second machine holding a copy of the same log
        try pushedByVersion1(["One", "Two", "Three"], at: folder("ana"))
        try FileManager.default.copyItem(atPath: folder("ana"), toPath: folder("bo"))

        // When the first machine writes with this build
        let ana = try Library(at: folder("ana"))
        let id = PodcastID(UUID())
        _ = try ana.submit([Submission(.podcast(.id(id), .create(id: id, name: "Four", at: .now)))], actor: "ana").results[0].get()

        // Then the schema is at this build's version, with a hash for every commit, and the head's is Ana's last
        let session = try PostgresSession(PostgresEndpoint(url: url))
        let row = try #require(try session.query("""
            SELECT (SELECT max(version) FROM \(unescaped: schema).schema_versions), (SELECT count(*) FROM \(unescaped: schema).commits),
                (SELECT hash FROM \(unescaped: schema).log_head)
            """).first)
        let (version, commits, head) = try row.decode((Int, Int64, String).self)
        #expect(version == PostgresSchema.version)
        #expect(commits == 4)
        #expect(try head == EventLog(at: folder("ana")).lastCommitHash())

        // And the second machine, whose copy was made before, catches up, and both verify against the server
        let bo = try Library(at: folder("bo"))
        #expect(try bo.podcasts().map(\.name).sorted() == ["Four", "One", "Three", "Two"])
        #expect(try logBytes(folder("bo")) == logBytes(folder("ana")))
        let verified = try bo.verify()
        #expect(verified.isClean, "\(verified.server?.problems ?? [])")
        #expect(try ana.verify().isClean)
    }

    @Test("a role that may not upgrade a version-1 schema: reads answer from the copy, saying why once; writes are refused, and nothing is written")
    func notUpgradedByAnEditor() throws {
        try pushedByVersion1(["One"], at: folder("ana"))
        // An editor of version 1: the schema and its tables, but not the schema's owner
        let role = "editor_" + schema.suffix(12)
        #expect(PostgresServer.shared!.run(sql: """
            CREATE ROLE \(role) LOGIN;
            GRANT USAGE ON SCHEMA \(schema) TO \(role);
            GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA \(schema) TO \(role);
            """) == 0)
        let asEditor = url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://\(role)@")
        let location = try SharedLocation(url: asEditor, schema: schema)
        try SharedLibraryFile(endpoint: location.endpoint, schema: schema).save(in: EventLog(at: folder("ana")))

        var notices: [ReadModelNotice] = []
        let ana = try Library(at: folder("ana"), notice: { notices.append($0) })
        #expect(try ana.podcasts().map(\.name) == ["One"])
        #expect(try ana.podcasts().count == 1)
        let offline = notices.compactMap { if case .offline(let reason, _) = $0 { reason } else { nil } }
        #expect(offline.count == 1, "\(notices)")
        #expect(offline.first?.contains("version 1") == true, "\(offline)")

        let id = PodcastID(UUID())
        #expect(throws: SharedLogError.olderSchema(schema: schema, found: 1, needed: PostgresSchema.version)) {
            _ = try ana.submit([Submission(.podcast(.id(id), .create(id: id, name: "Two", at: .now)))], actor: "ana")
        }
        #expect(ana.head == LogPosition(1))
        #expect(PostgresServer.shared!.run(sql: """
            DO $$ BEGIN IF (SELECT max(version) FROM \(schema).schema_versions) <> 1 THEN RAISE 'upgraded'; END IF; END $$
            """) == 0)
    }
}
