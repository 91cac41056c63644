import EventLog
import Foundation
import Testing
import TestSupport

/// A shared library's rows changed on the server after they were written, by its owner with the
/// append-only trigger disabled (what the owner role can do): every machine's next catch-up and a
/// fresh clone refuse them, naming the position, exit 74; `log verify` finds them; rows past the head
/// are set aside by `log repair`. Real `episodic` processes on a real PostgreSQL server.
@Suite("A shared library's rows changed on the server", .enabled(if: try PostgresServer.isAvailable, "no PostgreSQL server could be started"))
struct SharedLogChainCLITests {
    let cli = CLI()
    let schema = PostgresServer.freshSchema()
    var url: String { PostgresServer.shared!.url }

    func on(_ machine: String, _ arguments: String...) throws -> CLI.Run {
        try cli.run(arguments, environment: ["EPISODIC_LIBRARY": cli.folder + "/" + machine])
    }

    /// Runs `sql` as the superuser, each statement in the library's schema.
    func server(_ sql: String) {
        #expect(PostgresServer.shared!.run(sql: "SET search_path TO \(schema); " + sql) == 0, "\(sql)")
    }

    /// `sql` run as the table's owner would run it to change rows: with the append-only triggers off.
    func forge(_ sql: String) {
        server("""
            ALTER TABLE events DISABLE TRIGGER events_append_only; ALTER TABLE commits DISABLE TRIGGER commits_append_only;
            \(sql)
            ALTER TABLE events ENABLE TRIGGER events_append_only; ALTER TABLE commits ENABLE TRIGGER commits_append_only;
            """)
    }

    /// Ana's shared library with podcasts One to Five (positions 1 to 5), cloned by Bo, then a sixth
    /// podcast from Ana: Bo holds positions 1 to 5 and is one behind.
    func team() throws {
        #expect(try on("ana", "init", "--postgres", url, "--schema", schema).status == 0)
        for name in ["One", "Two", "Three", "Four", "Five"] { #expect(try on("ana", "podcast", "create", name).status == 0) }
        #expect(try on("bo", "clone", url, "--schema", schema).status == 0)
        #expect(try on("ana", "podcast", "create", "Six").status == 0)
    }

    func names(_ machine: String) throws -> [String] {
        let run = try on(machine, "podcast", "list", "--json")
        return try (run.json() as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }.sorted()
    }

    /// How far the machine's copy goes, read from its files (a command would catch up first).
    func logHead(_ machine: String) throws -> UInt64 {
        try EventLog(at: cli.folder + "/" + machine).head.rawValue
    }

    @Test("a payload changed on the server is refused by a machine that holds it and by a clone, naming its position; verify finds it")
    func forgedPayload() throws {
        try team()
        // When the owner changes the title of position 3 on the server
        forge("UPDATE events SET data = replace(data, 'Three', 'Forged') WHERE position = 3;")

        // Then Bo's next catch-up (Six is new to Bo) refuses it, names the position, and takes nothing
        let list = try on("bo", "podcast", "list")
        #expect(list.status == 74, "\(list.err)")
        #expect(list.err.contains("position 3"), "\(list.err)")
        #expect(!list.out.contains("Forged") && !list.err.contains("Forged"))
        #expect(try logHead("bo") == 5, "nothing more was copied")
        #expect(try on("bo", "podcast", "create", "Seven").status == 74, "nor does Bo write on it")

        // And a fresh clone stops before it, keeping what continues the chain
        let clone = try on("carol", "clone", url, "--schema", schema)
        #expect(clone.status == 74)
        #expect(clone.err.contains("position 3"), "\(clone.err)")
        #expect(try logHead("carol") == 2)
        var titles = ""
        try EventLog(at: cli.folder + "/carol").read(from: LogPosition(1)) { titles += String(decoding: $0.line, as: UTF8.self) }
        #expect(!titles.contains("Forged"))

        // And verify on the machine that wrote it finds it, naming the position
        let verify = try on("ana", "log", "verify", "--json")
        #expect(verify.status == 74)
        let server = try #require((verify.json() as? [String: Any])?["server"] as? [String: Any])
        #expect(server["clean"] as? Bool == false)
        let problems = server["problems"] as? [String] ?? []
        #expect(problems.contains { $0.contains("position 3") }, "\(problems)")
    }

    @Test(
        "digests no longer made by PostgreSQL from the rows are refused at the next catch-up, saying what changed",
        arguments: [
            (
                "ALTER TABLE events ALTER COLUMN digest DROP EXPRESSION; UPDATE events SET data = replace(data, 'Three', 'Forged') WHERE position = 3;",
                "events.digest is no longer generated"
            ),
            (
                "CREATE OR REPLACE FUNCTION commit_digest(bigint, bigint, text, text) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$ SELECT '\\x00'::bytea $$;",
                "the function commit_digest was changed"
            ),
        ])
    func alteredDigests(change: String, said: String) throws {
        try team()
        // When the owner changes how the server keeps its rows' digests (and, in the first case, a row)
        forge(change)

        // Then Bo's next catch-up refuses, says what changed, and copies nothing
        let list = try on("bo", "podcast", "list")
        #expect(list.status == 74, "\(list.err)")
        #expect(list.err.contains(said), "\(list.err)")
        #expect(!list.out.contains("Forged"))
        #expect(try logHead("bo") == 5, "nothing more was copied")
    }

    @Test("a middle row deleted on the server is refused by a machine that held it and by a clone, naming its position")
    func deletedRow() throws {
        try team()
        forge("DELETE FROM events WHERE position = 3; DELETE FROM commits WHERE commit_first = 3;")

        let list = try on("bo", "podcast", "list")
        #expect(list.status == 74, "\(list.err)")
        #expect(list.err.contains("position 3"), "\(list.err)")
        #expect(try logHead("bo") == 5)

        let clone = try on("carol", "clone", url, "--schema", schema)
        #expect(clone.status == 74)
        #expect(clone.err.contains("position 3"), "\(clone.err)")
    }

    @Test("two rows swapped on the server are refused by a machine that held them and by a clone, naming the first")
    func reorderedRows() throws {
        try team()
        // When the owner moves the events of positions 2 and 3 into each other's place
        forge("""
            UPDATE events SET position = 1000, commit_first = 1000, commit_last = 1000 WHERE position = 2;
            UPDATE events SET position = 2, commit_first = 2, commit_last = 2 WHERE position = 3;
            UPDATE events SET position = 3, commit_first = 3, commit_last = 3 WHERE position = 1000;
            """)

        let list = try on("bo", "podcast", "list")
        #expect(list.status == 74, "\(list.err)")
        #expect(list.err.contains("position 2"), "\(list.err)")

        let clone = try on("carol", "clone", url, "--schema", schema)
        #expect(clone.status == 74)
        #expect(clone.err.contains("position 2"), "\(clone.err)")
        #expect(try logHead("carol") == 1)
    }

    @Test("a row inserted past the head stops writers, naming it; `log repair` shows it, and sets it aside only when told; then writes go on")
    func insertedPastHead() throws {
        try team()
        // When the owner inserts an event past the head (the trigger does not stop an insert)
        server("""
            INSERT INTO events (position, commit_first, commit_last, chained, stream, stream_version, type, schema_version, time_ms,
                actor, command_id, data)
            VALUES (7, 7, 7, true, 'podcast-00000000-0000-0000-0000-000000000007', 1, 'PodcastCreated', 1, 0, 'intruder',
                gen_random_uuid(), '{}');
            """)

        // Then a write is refused, naming the position and what to run
        let write = try on("ana", "podcast", "create", "Seven")
        #expect(write.status == 74, "\(write.err)")
        #expect(write.err.contains("position 7") && write.err.contains("episodic log repair"), "\(write.err)")
        // A reader is not disturbed: the row is past the head, and nothing reads it
        #expect(try names("bo") == ["Five", "Four", "One", "Six", "Three", "Two"])

        // And `log repair` shows it without the flag, exit 74, and changes nothing
        let shown = try on("ana", "log", "repair")
        #expect(shown.status == 74)
        #expect(shown.out.contains("intruder") && shown.out.contains("--set-aside-server-rows"), "\(shown.out)")
        #expect(try on("ana", "podcast", "create", "Seven").status == 74)

        // With the flag it sets it aside, kept in the schema's set_aside table, and writes go on
        let repaired = try on("ana", "log", "repair", "--set-aside-server-rows", "--json")
        #expect(repaired.status == 0, "\(repaired.err)")
        let server = try #require((repaired.json() as? [String: Any])?["server"] as? [String: Any])
        #expect(server["setAside"] as? Int == 1)
        #expect((server["pastHead"] as? [[String: Any]])?.first?["actor"] as? String == "intruder")
        #expect(PostgresServer.shared!.run(sql: """
            DO $$ BEGIN IF (SELECT count(*) FROM \(schema).set_aside WHERE event->>'actor' = 'intruder') <> 1 THEN RAISE 'not kept'; END IF; END $$
            """) == 0)
        #expect(try on("ana", "podcast", "create", "Seven").status == 0)
        #expect(try names("bo").contains("Seven"))
        #expect(try on("bo", "log", "verify").status == 0)
    }

    @Test("verify on a clean shared library says every commit continues the chain, and exits 0")
    func cleanVerify() throws {
        try team()
        let verify = try on("bo", "log", "verify")
        #expect(verify.status == 0, "\(verify.out)")
        #expect(verify.out.contains("continues the chain"), "\(verify.out)")
    }
}
