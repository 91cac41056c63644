import Foundation
import Testing
import TestSupport

/// A shared library's server that is shutting down, recovering, or stopped and started again while
/// machines write and follow, on a PostgreSQL server of these tests' own (they stop it), one at a time.
@Suite("A shared library's server stopping and starting", .serialized, .enabled(if: try PostgresServer.isAvailable, "no PostgreSQL server could be started"))
struct SharedServerStatesCLITests {
    /// The server these tests stop and start.
    static let server = PostgresServer.start(fsync: false)
    let cli = CLI()
    let schema = PostgresServer.freshSchema()

    func on(_ machine: String, _ arguments: String...) throws -> CLI.Run {
        try cli.run(arguments, environment: ["EPISODIC_LIBRARY": cli.folder + "/" + machine])
    }

    func server() throws -> PostgresServer { try #require(Self.server, "no second server: \(PostgresServer.unavailable ?? "")") }

    /// Whether a new connection to `server` is refused now (psql exits 2 when it cannot connect).
    func refusing(_ server: PostgresServer) -> Bool { server.run(sql: "SELECT 1") != 0 }

    @Test("a server shutting down: a write exits 75 saying to try again; a list answers from the copy; once it is back, writes go on")
    func shuttingDown() throws {
        let server = try server()
        #expect(try on("ana", "init", "--postgres", server.url, "--schema", schema).status == 0)
        #expect(try on("ana", "podcast", "create", "Before").status == 0)
        // A client that stays, so that a smart shutdown waits for it and refuses everyone else meanwhile
        let client = try #require(server.startClient(running: "SELECT pg_sleep(30)"))
        Thread.sleep(forTimeInterval: 0.5)
        #expect(server.stop(mode: "smart", waiting: false) == 0)
        var waited = 0
        while !refusing(server), waited < 100 { Thread.sleep(forTimeInterval: 0.05); waited += 1 }
        #expect(refusing(server))

        let write = try on("ana", "podcast", "create", "During")
        #expect(write.status == 75, "\(write.err)")
        #expect(write.err.contains("shutting down") && write.err.contains("try again"), "\(write.err)")
        let list = try on("ana", "podcast", "list")
        #expect(list.status == 0 && list.out.contains("Before"), "\(list.err)")
        #expect(list.err.contains("shutting down"), "\(list.err)")

        kill(client, SIGKILL)
        var status: Int32 = 0
        waitpid(client, &status, 0)
        server.stop(mode: "fast")  // the smart shutdown may have ended already
        #expect(server.startAgain() == 0)
        #expect(try on("ana", "podcast", "create", "After").status == 0)
    }

    @Test("a server recovering (a standby that takes no connections yet): a write exits 75 saying to try again; once it is back, writes go on")
    func recovering() throws {
        let server = try server()
        #expect(try on("ana", "init", "--postgres", server.url, "--schema", schema).status == 0)
        #expect(try on("ana", "podcast", "create", "Before").status == 0)
        #expect(server.stop(mode: "fast") == 0)
        let settings = server.data + "/postgresql.auto.conf"
        let kept = try String(contentsOfFile: settings, encoding: .utf8)
        try (kept + "\nhot_standby = off\n").write(toFile: settings, atomically: false, encoding: .utf8)
        #expect(FileManager.default.createFile(atPath: server.data + "/standby.signal", contents: Data()))
        defer {
            server.stop(mode: "fast")
            try? FileManager.default.removeItem(atPath: server.data + "/standby.signal")
            try? kept.write(toFile: settings, atomically: false, encoding: .utf8)
            server.startAgain()
        }
        #expect(server.startAgain(waiting: false) == 0)
        Thread.sleep(forTimeInterval: 1)

        let started = ContinuousClock.now
        let write = try on("ana", "podcast", "create", "During")
        #expect(ContinuousClock.now - started < .seconds(15))
        #expect(write.status == 75, "\(write.err)")
        #expect(write.err.contains("accepting connections") && write.err.contains("try again"), "\(write.err)")
        for name in ["PSQLError", "Generic description"] { #expect(!write.err.contains(name)) }
    }

    @Test("the server stopped and started while three machines write: every command ends, 0 or 75; every acknowledged one is on the server and every machine")
    func restartUnderLoad() throws {
        let server = try server()
        #expect(try on("m0", "init", "--postgres", server.url, "--schema", schema).status == 0)
        #expect(try on("m0", "podcast", "create", "Busy").status == 0)
        for machine in ["m1", "m2"] { #expect(try on(machine, "clone", server.url, "--schema", schema).status == 0) }
        let machines = ["m0", "m1", "m2"], each = 12
        // Each machine writes episodes one after the other, noting each command's exit code
        let processes = try machines.map { machine in
            try cli.shell("""
                for i in $(seq 1 \(each)); do
                    "$EPISODIC" episode create Busy "\(machine) $i" --quiet --lock-timeout 2 > /dev/null 2>> "$NOTES.err"
                    echo "\(machine) $i $?" >> "$NOTES"
                    sleep 0.1
                done
                """, environment: ["EPISODIC_LIBRARY": cli.folder + "/" + machine, "NOTES": cli.folder + "/\(machine).notes"])
        }
        Thread.sleep(forTimeInterval: 1)
        #expect(server.stop(mode: "fast") == 0)
        Thread.sleep(forTimeInterval: 1.5)
        #expect(server.startAgain() == 0)

        // Then every process ends (none hangs holding its machine), every command exits 0 or 75
        let deadline = ContinuousClock.now + .seconds(180)
        while processes.contains(where: \.isRunning), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.1) }
        for process in processes where process.isRunning { process.terminate() }
        #expect(processes.allSatisfy { !$0.isRunning }, "a writer hung")
        var acknowledged: Set<String> = [], refused = 0
        for machine in machines {
            let notes = (try? String(contentsOfFile: cli.folder + "/\(machine).notes", encoding: .utf8)) ?? ""
            for line in notes.split(separator: "\n") {
                let parts = line.split(separator: " ")
                let code = Int(parts[2]) ?? -1
                #expect(code == 0 || code == 75, "\(line): \((try? String(contentsOfFile: cli.folder + "/\(machine).notes.err", encoding: .utf8)) ?? "")")
                if code == 0 { acknowledged.insert("\(parts[0]) \(parts[1])") } else { refused += 1 }
            }
            #expect(notes.split(separator: "\n").count == each, "every command of \(machine) ended")
        }
        #expect(refused > 0 || acknowledged.count == machines.count * each)

        // And every acknowledged episode is on every machine, whose copies hold the same log
        var logs: [String] = []
        for machine in machines {
            let list = try on(machine, "episode", "list", "Busy", "--json")
            #expect(list.status == 0, "\(list.err)")
            let titles = Set(try (list.json() as? [[String: Any]] ?? []).compactMap { $0["title"] as? String })
            #expect(acknowledged.isSubset(of: titles), "\(acknowledged.subtracting(titles))")
            logs.append(try on(machine, "log", "--json").out)
            #expect(try on(machine, "log", "verify").status == 0)
        }
        #expect(logs.allSatisfy { $0 == logs[0] })
    }

    @Test("log --follow across a server restart: it says the server is back, and shows what came after the last event it showed")
    func followAcrossRestart() throws {
        let server = try server()
        #expect(try on("ana", "init", "--postgres", server.url, "--schema", schema).status == 0)
        #expect(try on("bo", "clone", server.url, "--schema", schema).status == 0)
        let follower = try cli.start(["log", "--follow", "--json"], environment: ["EPISODIC_LIBRARY": cli.folder + "/bo"])
        let out = Collected(follower.out), err = Collected(follower.err)
        defer {
            // Killed: a child of the test runner inherits its blocked SIGTERM.
            kill(follower.process.processIdentifier, SIGKILL)
            follower.process.waitUntilExit()
        }
        #expect(try on("ana", "podcast", "create", "Before").status == 0)
        #expect(out.wait(for: "PodcastCreated", within: .seconds(20)), "\(out.text)")

        #expect(server.stop(mode: "fast") == 0)
        Thread.sleep(forTimeInterval: 1)
        #expect(server.startAgain() == 0)
        #expect(try on("ana", "podcast", "create", "After").status == 0)

        #expect(out.wait(for: "\"After\"", within: .seconds(30)), "out: \(out.text)\nerr: \(err.text)")
        #expect(err.wait(for: "going on after position 1", within: .seconds(5)), "\(err.text)")
        #expect(out.text.components(separatedBy: "PodcastCreated").count == 3, "each event shown once: \(out.text)")
        #expect(follower.process.isRunning)
    }
}

/// What a child writes to a pipe, collected as it comes.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = Data()

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                lock.withLock { bytes.append(data) }
            }
        }
    }

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// Waits until the text holds `needle`, up to `timeout`; whether it does.
    func wait(for needle: String, within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if text.contains(needle) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return text.contains(needle)
    }
}
