import Foundation
import Testing
import TestSupport

/// The least-privilege editor the README's team section sets up: a role given only what
/// `grant_editor` gives (the schema, reading its tables, and the schema's functions) works as a
/// teammate, through real `episodic` processes, and cannot change the log any other way.
@Suite("An editor with only the rights grant_editor gives", .enabled(if: try PostgresServer.isAvailable, "no PostgreSQL server could be started"))
struct SharedEditorRoleCLITests {
    let cli = CLI()
    let schema = PostgresServer.freshSchema()
    var server: PostgresServer { PostgresServer.shared! }

    func on(_ machine: String, _ arguments: String...) throws -> CLI.Run {
        try cli.run(arguments, environment: ["EPISODIC_LIBRARY": cli.folder + "/" + machine])
    }

    @Test("an editor clones, writes (a transcript's blob too), verifies and repairs through the functions, and cannot touch log_head, events or a trigger")
    func leastPrivilege() throws {
        // Given a shared library made by its owner, and a role the owner makes an editor
        #expect(try on("ana", "init", "--postgres", server.url, "--schema", schema).status == 0)
        #expect(try on("ana", "podcast", "create", "Team").status == 0)
        let editor = "ed_" + schema.suffix(12)
        #expect(server.run(sql: "CREATE ROLE \(editor) LOGIN; SELECT \(schema).grant_editor('\(editor)')") == 0)
        let asEditor = server.url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://\(editor)@")

        // When the editor works as a teammate
        let clone = try on("bo", "clone", asEditor, "--schema", schema)
        #expect(clone.status == 0, "\(clone.err)")
        #expect(try on("bo", "episode", "create", "Team", "Pilot").status == 0)
        let imported = try on("bo", "transcript", "import", "Team/1", Fixtures.path(Fixtures.names[0]))
        #expect(imported.status == 0, "\(imported.err)")
        #expect(try on("ana", "transcript", "show", "Team/1").status == 0, "the blob reached the server")
        #expect(try on("bo", "log", "verify").status == 0)

        // Then nothing but the functions changes the library for the editor
        for sql in [
            "UPDATE \(schema).log_head SET position = 0",
            "ALTER TABLE \(schema).events DISABLE TRIGGER events_append_only",
            "ALTER TABLE \(schema).commits DISABLE TRIGGER ALL",
            "DELETE FROM \(schema).events",
            "INSERT INTO \(schema).commits VALUES (99, 99, repeat('0', 64), repeat('0', 64))",
            "INSERT INTO \(schema).blobs VALUES (repeat('0', 64), 0, '')",
            "UPDATE \(schema).claims SET key = 'x'",
            "SET session_replication_role = replica",
            "SELECT \(schema).grant_editor('\(editor)')",
        ] {
            #expect(server.run(sql: sql, as: editor) != 0, "the editor could: \(sql)")
        }
        #expect(try on("ana", "log", "verify").status == 0, "the log is as it was")

        // And an editor's repair sets aside rows past the head that the owner's mistake left there
        #expect(server.run(sql: """
            INSERT INTO \(schema).events (position, commit_first, commit_last, chained, stream, stream_version, type,
                schema_version, time_ms, actor, command_id, data)
            VALUES (99, 99, 99, true, 'podcast-00000000-0000-0000-0000-000000000099', 1, 'PodcastCreated', 1, 0, 'owner', gen_random_uuid(), '{}')
            """) == 0)
        #expect(try on("bo", "podcast", "create", "Blocked").status == 74)
        let repaired = try on("bo", "log", "repair", "--set-aside-server-rows")
        #expect(repaired.status == 0, "\(repaired.err)")
        #expect(try on("bo", "podcast", "create", "Unblocked").status == 0)
    }
}
