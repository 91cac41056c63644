import Foundation
import Testing
import TestSupport

/// A shared library's link to its server failing in the middle of a command, through a proxy the test
/// runs (``FaultyLink``): cut, stalled, black-holed, or a reply lost, at each statement of a write. The
/// command never hangs: it ends within its deadlines, exit 75, saying whether the change may have been
/// written, and lets go of the machine's lock; what the log then holds agrees with what it said.
@Suite("A shared library's server failing mid-command", .enabled(if: try PostgresServer.isAvailable, "no PostgreSQL server could be started"))
struct SharedServerFaultsCLITests {
    /// The statements of a write through the link: its login, the catch-up's look at the server, the
    /// append; and one past them, where the fault never comes and the write goes through.
    static let steps = 0..<4

    /// What the server holds for the podcast named `name`: 1 when it was created, 0 when not.
    static func onServer(_ name: String, schema: String) -> Int? {
        (0...1).first { count in
            PostgresServer.shared!.run(sql: """
                DO $$ BEGIN IF (SELECT count(*) FROM \(schema).events WHERE type = 'PodcastCreated' AND data LIKE '%"\(name)"%') <> \(count)
                THEN RAISE 'no'; END IF; END $$
                """) == 0
        }
    }

    @Test("a write whose link fails at a statement: exit 75 within its deadlines, saying whether it may have been written; the lock is free; the log agrees",
          arguments: FaultyLink.Fault.allCases, steps)
    func linkFails(_ fault: FaultyLink.Fault, atStatement step: Int) throws {
        // Given a shared library whose machine reaches the server through the link
        let cli = CLI()
        let schema = PostgresServer.freshSchema()
        let server = PostgresServer.shared!
        let link = try FaultyLink(toPort: server.port)
        defer { link.close() }
        let environment = ["EPISODIC_LIBRARY": cli.folder + "/ana"]
        #expect(try cli.run(["init", "--postgres", server.url, "--schema", schema], environment: environment).status == 0)
        try #"{"schema":"\#(schema)","url":"postgres://postgres@127.0.0.1:\#(link.port)/postgres?sslmode=disable"}"#
            .write(toFile: cli.folder + "/ana/SHARED", atomically: true, encoding: .utf8)
        let warm = link.statements.count
        #expect(try cli.run(["podcast", "create", "Before"], environment: environment).status == 0)
        let statements = Array(link.statements.dropFirst(warm))
        #expect(statements.count == 3, "\(statements)")
        let append = try #require(statements.firstIndex { $0.contains(".append(") })

        // When the link fails at the statement
        link.arm(fault, atStatement: step)
        let started = ContinuousClock.now
        let write = try cli.run(["podcast", "create", "During", "--lock-timeout", "1"], environment: environment)
        let took = ContinuousClock.now - started
        link.disarm()

        // Then the command ends within its deadlines, and says in words what happened
        #expect(took < .seconds(20), "it took \(took)")
        #expect(!write.err.contains("PSQLError") && !write.err.contains("ClosedConnection") && !write.err.contains("Generic description"), "\(write.err)")
        let written = Self.onServer("During", schema: schema)
        if step >= statements.count {
            #expect(write.status == 0, "\(write.err)")
            #expect(written == 1)
        } else {
            #expect(write.status == 75, "\(write.err)")
            if step < append {
                #expect(write.err.contains("Nothing was written"), "\(write.err)")
                #expect(written == 0, "said nothing was written")
            } else {
                #expect(write.err.contains("may have been written") && write.err.contains("episodic log"), "\(write.err)")
            }
            if fault == .loseReply && step == append { #expect(written == 1, "the server ran the append whose reply was lost") }
        }

        // And the machine's lock is free: a command that does not wait for it works, and its copy holds
        // what the server holds
        let list = try cli.run(["podcast", "list", "--json", "--lock-timeout", "0"], environment: environment)
        #expect(list.status == 0, "\(list.err)")
        let names = try (list.json() as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.contains("During") == (written == 1), "\(names)")
        #expect(try cli.run(["podcast", "create", "After", "--lock-timeout", "0"], environment: environment).status == 0)
    }
}
