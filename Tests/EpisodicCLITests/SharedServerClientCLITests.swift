import Foundation
import Testing
import TestSupport

/// `episodic` as a careful PostgreSQL client, as child processes on a real server: a schema newer than
/// the build, a wait for another machine's lock bounded by --lock-timeout, a password file only at mode
/// 0600, a refused login with its own exit code, each warning once, the server's errors in words, a
/// server rolled back.
@Suite("A careful client of a shared library's server", .enabled(if: try PostgresServer.isAvailable, "no PostgreSQL server could be started"))
struct SharedServerClientCLITests {
    let cli = CLI()
    let schema = PostgresServer.freshSchema()
    var server: PostgresServer { PostgresServer.shared! }
    var url: String { server.url }

    func on(_ machine: String, _ arguments: String..., environment: [String: String] = [:]) throws -> CLI.Run {
        try cli.run(arguments, environment: ["EPISODIC_LIBRARY": cli.folder + "/" + machine].merging(environment) { $1 })
    }

    func warnings(_ run: CLI.Run) -> [Substring] { run.err.split(separator: "\n").filter { $0.hasPrefix("warning:") } }

    func noInternalNames(_ run: CLI.Run) {
        for name in ["PSQLError", "Generic description", "ClosedConnection", "serverInfo", "sqlState"] {
            #expect(!run.err.contains(name), "\(run.err)")
        }
    }

    @Test("a schema newer than this build: writes, clone, verify and push are refused, exit 1, saying to upgrade; a list answers from the copy with one warning")
    func newerSchema() throws {
        #expect(try on("ana", "init", "--postgres", url, "--schema", schema).status == 0)
        #expect(try on("ana", "podcast", "create", "Kept").status == 0)
        #expect(server.run(sql: "INSERT INTO \(schema).schema_versions (version) VALUES (99)") == 0)

        for run in [try on("ana", "podcast", "create", "Lost"), try on("bo", "clone", url, "--schema", schema),
                    try on("ana", "log", "verify")] {
            #expect(run.status == 1, "\(run.err)")
            #expect(run.err.contains("version 99") && run.err.contains("upgrade Episodic"), "\(run.err)")
            noInternalNames(run)
        }
        #expect(try on("own", "init").status == 0)
        #expect(try on("own", "podcast", "create", "Mine").status == 0)
        let push = try on("own", "push", url, "--schema", schema)
        #expect(push.status == 1 && push.err.contains("version 99"), "\(push.err)")

        let list = try on("ana", "podcast", "list")
        #expect(list.status == 0)
        #expect(list.out.contains("Kept") && !list.out.contains("Lost"))
        #expect(warnings(list).count == 1, "\(list.err)")
        #expect(list.err.contains("version 99"))
        #expect(!FileManager.default.fileExists(atPath: cli.folder + "/bo/SHARED"))
    }

    @Test("another machine holding the server's head: a write gives up after --lock-timeout, exit 75, saying so")
    func headHeldByAnother() throws {
        #expect(try on("ana", "init", "--postgres", url, "--schema", schema).status == 0)
        #expect(try on("ana", "podcast", "create", "First").status == 0)
        // A client that holds the head's row lock inside a transaction, as an append in progress does
        let client = try #require(server.startClient(running: """
            BEGIN; SELECT * FROM \(schema).log_head FOR UPDATE; SELECT pg_sleep(60);
            """))
        defer { kill(client, SIGKILL); var status: Int32 = 0; waitpid(client, &status, 0) }
        var holding = false
        for _ in 0..<100 where !holding {
            Thread.sleep(forTimeInterval: 0.05)
            holding = server.run(sql: """
                DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' AND state = 'active')
                THEN RAISE 'not yet'; END IF; END $$
                """) == 0
        }
        #expect(holding)

        let started = ContinuousClock.now
        let write = try on("ana", "podcast", "create", "Second", "--lock-timeout", "1")
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(write.status == 75, "\(write.err)")
        #expect(write.err.contains("lock timeout (1 s)") && write.err.contains("Nothing was written"), "\(write.err)")
        noInternalNames(write)
    }

    @Test("a login the server refuses exits 77 in words; a password file others may read is not read, said once; at mode 0600 it is")
    func logins() throws {
        #expect(try on("ana", "init", "--postgres", url, "--schema", schema).status == 0)
        // A role that logs in with a password over TCP (the tests' server trusts everyone else)
        let role = "pw_" + schema.suffix(12)
        #expect(server.run(sql: "CREATE ROLE \(role) LOGIN PASSWORD 'right horse'; SELECT \(schema).grant_editor('\(role)')") == 0)
        let hba = server.data + "/pg_hba.conf"
        let rules = try String(contentsOfFile: hba, encoding: .utf8)
        try ("host all \(role) 127.0.0.1/32 scram-sha-256\n" + rules).write(toFile: hba, atomically: false, encoding: .utf8)
        defer {
            try? rules.write(toFile: hba, atomically: false, encoding: .utf8)
            server.run(sql: "SELECT pg_reload_conf()")
        }
        #expect(server.run(sql: "SELECT pg_reload_conf()") == 0)
        Thread.sleep(forTimeInterval: 0.3)
        let tcp = "postgres://\(role)@127.0.0.1:\(server.port)/postgres?sslmode=disable"

        // A wrong password: 77, in words
        let wrong = try on("bo", "clone", tcp, "--schema", schema, environment: ["PGPASSWORD": "wrong horse"])
        #expect(wrong.status == 77, "\(wrong.err)")
        #expect(wrong.err.contains("password for role \(role) is wrong"), "\(wrong.err)")
        noInternalNames(wrong)

        // A password file that others may read: not read, 77, saying why and what to do
        let passwords = cli.folder + "/.pgpass"
        try "127.0.0.1:\(server.port):postgres:\(role):right horse\n".write(toFile: passwords, atomically: true, encoding: .utf8)
        #expect(chmod(passwords, 0o644) == 0)
        let open = try on("bo", "clone", tcp, "--schema", schema)
        #expect(open.status == 77, "\(open.err)")
        #expect(open.err.contains("chmod 600"), "\(open.err)")

        // At mode 0600 it is read, and nothing is said about it
        #expect(chmod(passwords, 0o600) == 0)
        let cloned = try on("bo", "clone", tcp, "--schema", schema)
        #expect(cloned.status == 0, "\(cloned.err)")
        #expect(cloned.err.isEmpty, "\(cloned.err)")

        // Open to others again, with the password given some other way: one warning, and it works
        #expect(chmod(passwords, 0o640) == 0)
        let list = try on("bo", "podcast", "list", environment: ["PGPASSWORD": "right horse"])
        #expect(list.status == 0, "\(list.err)")
        #expect(warnings(list).isEmpty, "no password came from the file, so nothing is said: \(list.err)")
        // A machine whose server asks for no password still hears, once, that the file was not read, as libpq says
        let trusted = try on("ana", "podcast", "list")
        #expect(trusted.status == 0, "\(trusted.err)")
        #expect(warnings(trusted).count == 1 && trusted.err.contains("chmod 600"), "\(trusted.err)")
    }

    @Test("a server that cannot be reached: the warning that a list answers from the copy is said once")
    func oneWarning() throws {
        #expect(try on("ana", "init", "--postgres", url, "--schema", schema).status == 0)
        #expect(try on("ana", "podcast", "create", "Kept").status == 0)
        try #"{"schema":"\#(schema)","url":"postgres://postgres@127.0.0.1:1/postgres"}"#
            .write(toFile: cli.folder + "/ana/SHARED", atomically: true, encoding: .utf8)
        for arguments in [["podcast", "list"], ["episode", "list", "Kept"], ["log"], ["search", "kept"]] {
            let run = try cli.run(arguments, environment: ["EPISODIC_LIBRARY": cli.folder + "/ana"])
            #expect(run.status == 0, "\(arguments): \(run.err)")
            #expect(warnings(run).count == 1, "\(arguments): \(run.err)")
        }
    }

    @Test("a schema name PostgreSQL keeps for itself is a usage error in words, and nothing is written")
    func reservedSchema() throws {
        for name in ["pg_catalog", "PG_toast", "information_schema"] {
            let run = try on("ana", "clone", url, "--schema", name)
            #expect(run.status == 64, "\(run.err)")
            #expect(run.err.contains("PostgreSQL keeps for itself"), "\(run.err)")
            noInternalNames(run)
            let created = try on("ana", "init", "--postgres", url, "--schema", name)
            #expect(created.status == 64)
        }
        #expect(!FileManager.default.fileExists(atPath: cli.folder + "/ana"))
    }

    @Test("a server rolled back: a list answers from the copy with a warning that says so; a write is refused, exit 74, saying what to do")
    func rolledBack() throws {
        #expect(try on("ana", "init", "--postgres", url, "--schema", schema).status == 0)
        for name in ["One", "Two", "Three"] { #expect(try on("ana", "podcast", "create", name).status == 0) }
        #expect(server.run(sql: """
            SET session_replication_role = replica;
            DELETE FROM \(schema).events WHERE position = 3;
            DELETE FROM \(schema).commits WHERE commit_first = 3;
            UPDATE \(schema).log_head SET position = 2, hash = (SELECT hash FROM \(schema).commits WHERE commit_last = 2);
            """) == 0)

        let list = try on("ana", "podcast", "list")
        #expect(list.status == 0, "\(list.err)")
        #expect(list.out.contains("Three"))
        #expect(warnings(list).count == 1 && list.err.contains("restored to an earlier point"), "\(list.err)")

        let write = try on("ana", "podcast", "create", "Four")
        #expect(write.status == 74)
        #expect(write.err.contains("restore the server from a later backup"), "\(write.err)")
        noInternalNames(write)
    }
}
