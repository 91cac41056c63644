import Foundation
import Testing
import TestSupport

/// `episodic init --postgres`, `clone` and `push`, and every other command on a shared library, as
/// child processes on a real PostgreSQL server: two "machines" are two library folders.
@Suite("A shared library from the command line", .enabled(if: try PostgresServer.isAvailable, "no PostgreSQL server could be started"))
struct SharedLibraryCLITests {
    let cli = CLI()
    let schema = PostgresServer.freshSchema()
    var url: String { PostgresServer.shared!.url }

    /// Runs `arguments` on the library at `path` (a machine of its own).
    func on(_ path: String, _ arguments: String..., environment: [String: String] = [:]) throws -> CLI.Run {
        try cli.run(arguments, environment: ["EPISODIC_LIBRARY": cli.folder + "/" + path].merging(environment) { $1 })
    }

    @Test("init --postgres, then clone: both machines see each other's commands; the password is never printed or stored")
    func initAndClone() throws {
        let withPassword = url.replacingOccurrences(of: "postgres://postgres@", with: "postgres://postgres:hunter2secret@")
        let created = try on("ana", "init", "--postgres", withPassword, "--schema", schema, "--json")
        #expect(created.status == 0, "\(created.err)")
        let record = try created.json() as! [String: Any]
        #expect(record["created"] as? Bool == true)
        #expect(try on("ana", "podcast", "create", "Team Show").status == 0)

        let cloned = try on("bo", "clone", url, "--schema", schema, "--json", environment: ["PGPASSWORD": "hunter2secret"])
        #expect(cloned.status == 0, "\(cloned.err)")
        #expect((try cloned.json() as! [String: Any])["events"] as? Int == 1)
        #expect(try on("bo", "episode", "create", "Team Show", "Pilot").status == 0)
        let episodes = try on("ana", "episode", "list", "Team Show", "--json")
        #expect((try episodes.json() as! [[String: Any]]).map { $0["title"] as? String } == ["Pilot"])
        // The same name from the other machine is the domain's refusal, exit 65, and writes nothing.
        let clash = try on("ana", "podcast", "create", "team show")
        #expect(clash.status == 65)
        let verify = try on("bo", "log", "verify", "--json")
        #expect(verify.status == 0, "\(verify.out)")
        let server = (try verify.json() as! [String: Any])["server"] as? [String: Any]
        #expect(server?["clean"] as? Bool == true)
        #expect(server?["serverHead"] as? Int == 2)

        for run in [created, cloned, clash, verify] { #expect(!(run.out + run.err).contains("hunter2secret")) }
        for machine in ["ana", "bo"] {
            let shared = try String(contentsOfFile: cli.folder + "/\(machine)/SHARED", encoding: .utf8)
            #expect(!shared.contains("hunter2secret"))
            #expect(shared.contains(schema))
        }
    }

    @Test("push moves a library to the server and makes the folder its side; a second machine clones it byte for byte")
    func pushAndClone() throws {
        #expect(try on("own", "init").status == 0)
        #expect(try on("own", "podcast", "create", "Solo").status == 0)
        #expect(try on("own", "episode", "create", "Solo", "One").status == 0)
        let pushed = try on("own", "push", url, "--schema", schema, "--json")
        #expect(pushed.status == 0, "\(pushed.err)")
        let record = try pushed.json() as! [String: Any]
        #expect(record["sent"] as? Int == 2)
        #expect(try on("own", "push", url, "--schema", schema).status == 65, "already shared")
        #expect(try on("copy", "clone", url, "--schema", schema).status == 0)
        #expect(try on("copy", "episode", "create", "Solo", "Two").status == 0)
        let list = try on("own", "episode", "list", "Solo", "--json")
        #expect((try list.json() as! [[String: Any]]).count == 2)
        let log = { (machine: String) in try self.on(machine, "log", "--json").out }
        #expect(try log("own") == log("copy"))
    }

    @Test("a server that cannot be reached: a write exits 75 and writes nothing; a list answers from the copy and says how old it is")
    func unreachable() throws {
        #expect(try on("ana", "init", "--postgres", url, "--schema", schema).status == 0)
        #expect(try on("ana", "podcast", "create", "Kept").status == 0)
        let settings = cli.folder + "/ana/SHARED"
        let saved = try String(contentsOfFile: settings, encoding: .utf8)
        try #"{"schema":"\#(schema)","url":"postgres://postgres@127.0.0.1:1/postgres"}"#.write(toFile: settings, atomically: true, encoding: .utf8)
        let write = try on("ana", "podcast", "create", "Lost")
        #expect(write.status == 75)
        #expect(write.err.contains("cannot be reached"))
        let list = try on("ana", "podcast", "list")
        #expect(list.status == 0)
        #expect(list.out.contains("Kept") && !list.out.contains("Lost"))
        #expect(list.err.contains("this machine's copy"))
        try saved.write(toFile: settings, atomically: true, encoding: .utf8)
        #expect(try on("ana", "podcast", "list").err.isEmpty)
    }

    @Test("a URL or schema that cannot be used is a usage error, and nothing is written")
    func badLocation() throws {
        let notURL = try on("ana", "init", "--postgres", "mysql://somewhere/db")
        #expect(notURL.status == 64)
        #expect(notURL.err.contains("postgres://"))
        let badSchema = try on("ana", "clone", url, "--schema", "a; DROP")
        #expect(badSchema.status == 64)
        #expect(!FileManager.default.fileExists(atPath: cli.folder + "/ana"))
        let noLibrary = try on("ana", "clone", url, "--schema", schema)
        #expect(noLibrary.status == 66)
        #expect(!FileManager.default.fileExists(atPath: cli.folder + "/ana"))
    }

    @Test("three `episodic` processes on three machines add episodes to one podcast at once: all land, numbered uniquely, the same on every machine")
    func processesAtOnce() throws {
        #expect(try on("m0", "init", "--postgres", url, "--schema", schema).status == 0)
        #expect(try on("m0", "podcast", "create", "Busy").status == 0)
        for machine in ["m1", "m2"] { #expect(try on(machine, "clone", url, "--schema", schema).status == 0) }
        let machines = ["m0", "m1", "m2"], each = 8
        let processes = try machines.map { machine in
            try cli.shell("""
                for i in $(seq 1 \(each)); do "$EPISODIC" episode create Busy "\(machine) $i" --quiet > /dev/null || exit 1; done
                """, environment: ["EPISODIC_LIBRARY": cli.folder + "/" + machine])
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "every command was acknowledged")
        var logs: [String] = []
        for machine in machines {
            let episodes = try on(machine, "episode", "list", "Busy", "--json")
            let numbers = (try episodes.json() as! [[String: Any]]).compactMap { $0["number"] as? Int }
            #expect(numbers.sorted() == Array(1...(machines.count * each)), "numbers unique and gapless")
            logs.append(try on(machine, "log", "--json").out)
        }
        #expect(logs.allSatisfy { $0 == logs[0] } && !logs[0].isEmpty)
    }
}
