import Foundation
import TestSupport

/// The built `episodic` binary, run as a real child process against a library in a temporary folder.
final class CLI {
    /// What one invocation did.
    struct Run {
        var status: Int32
        /// The process was killed by signal `status`, rather than exiting with it.
        var signaled = false
        var out: String
        var err: String

        /// The output as JSON.
        func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(out.utf8)) }
        /// Each line of the output as a JSON object (`submit --json`).
        func jsonLines() throws -> [[String: Any]] {
            try out.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        }
    }

    private let temporary = TemporaryFolder("episodic-cli-test")
    var folder: String { temporary.path }
    var library: String { folder + "/library" }
    /// Variables every invocation gets, beside a clean environment (no EPISODIC_* from the caller).
    var environment: [String: String]
    /// A command that runs the binary as someone else (`setpriv ...`), with its arguments; empty: as this process.
    var runAs: [String] = []

    init() {
        environment = ["EPISODIC_LIBRARY": temporary.path + "/library", "EPISODIC_ACTOR": "tester", "HOME": temporary.path]
    }

    static var binary: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("episodic")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url.path }
        }
        return FileManager.default.currentDirectoryPath + "/.build/debug/episodic"
    }

    /// Runs `episodic arguments...`, feeding `input` on stdin.
    @discardableResult
    func run(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) throws -> Run {
        try start(arguments, input: input, environment: extra).finish()
    }

    /// A child started and not yet waited for.
    struct Running {
        let process: Process
        let out: Pipe
        let err: Pipe

        /// Waits for the end; reads both pipes to the end first, so that a chatty child never blocks.
        func finish() -> Run {
            let errors = LockedData()
            let reader = Thread { errors.set(err.fileHandleForReading.readDataToEndOfFile()) }
            reader.start()
            let output = out.fileHandleForReading.readDataToEndOfFile()
            while !reader.isFinished { usleep(1_000) }
            process.waitUntilExit()
            return Run(
                status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                out: String(decoding: output, as: UTF8.self), err: String(decoding: errors.get(), as: UTF8.self))
        }
    }

    /// Runs `episodic arguments...` with `input` on stdin, killed if it still runs after
    /// `seconds`: for commands that may wait until stopped (`log --follow`).
    func run(_ arguments: [String], inputData input: Data?, stoppingAfter seconds: Double) throws -> Run {
        let running = try start(arguments, inputData: input ?? Data())
        let deadline = Date().addingTimeInterval(seconds)
        let stopper = Thread {
            while running.process.isRunning, Date() < deadline { usleep(10_000) }
            if running.process.isRunning { kill(running.process.processIdentifier, SIGKILL) }
        }
        stopper.start()
        return running.finish()
    }

    /// Starts `episodic arguments...` with `input` on stdin, without waiting for it.
    func start(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:]) throws -> Running {
        try start(arguments, inputData: Data((input ?? "").utf8), environment: extra)
    }

    /// Starts `script` with `/bin/sh -c` in this CLI's folder and environment, `$EPISODIC` naming the
    /// binary under test, and `extra` variables; the caller waits for it.
    func shell(_ script: String, environment extra: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = environment.merging(["EPISODIC": Self.binary, "PATH": "/usr/bin:/bin"]) { $1 }.merging(extra) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        try process.run()
        return process
    }

    /// Bytes a pipe takes before its reader reads (Linux's default).
    static let pipeCapacity = 65_536

    /// Starts `episodic arguments...` with the bytes `input` on stdin, without waiting for it.
    func start(_ arguments: [String], inputData input: Data, environment extra: [String: String] = [:]) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: runAs.first ?? Self.binary)
        process.arguments = runAs.isEmpty ? arguments : Array(runAs.dropFirst()) + [Self.binary] + arguments
        process.environment = environment.merging(extra) { $1 }.merging(["PATH": "/usr/bin:/bin"]) { old, _ in old }
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        try process.run()
        let writer = stdin.fileHandleForWriting
        guard input.count > Self.pipeCapacity else {
            writer.write(input)
            try writer.close()
            return Running(process: process, out: out, err: err)
        }
        // More than the pipe holds: written beside the child, which may read it slowly or stop reading
        // (then the write fails with EPIPE, which is no signal to this process).
        signal(SIGPIPE, SIG_IGN)
        Thread {
            try? writer.write(contentsOf: input)
            try? writer.close()
        }.start()
        return Running(process: process, out: out, err: err)
    }

    func run(_ arguments: String..., input: String? = nil) throws -> Run { try run(arguments, input: input) }

    /// Runs a command that must succeed, and returns its output.
    @discardableResult
    func must(_ arguments: String..., input: String? = nil) throws -> Run {
        let result = try run(arguments, input: input)
        guard result.status == 0 else {
            throw Failed(arguments: arguments, run: result)
        }
        return result
    }

    /// A command that must succeed with `--json`, and its output as an object.
    func object(_ arguments: String...) throws -> [String: Any] {
        let result = try run(arguments + ["--json"])
        guard result.status == 0 else { throw Failed(arguments: arguments, run: result) }
        return try result.json() as! [String: Any]
    }

    /// A list command with `--json`, as an array of objects.
    func list(_ arguments: String...) throws -> [[String: Any]] { try list(arguments) }

    func list(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try run(arguments + ["--json"])
        guard result.status == 0 else { throw Failed(arguments: arguments, run: result) }
        return try result.json() as! [[String: Any]]
    }

    /// The head of the library's log, as `projections status` reports it.
    func head() throws -> Int {
        let statuses = try list("projections", "status")
        return statuses.first!["head"] as! Int
    }

    struct Failed: Error, CustomStringConvertible {
        var arguments: [String]
        var run: Run
        var description: String { "`episodic \(arguments.joined(separator: " "))` exited with \(run.status): \(run.err)" }
    }

    /// A file in the test's folder.
    func write(_ text: String, to name: String) throws -> String {
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// The transcripts DOMAIN.md describes, as committed with the domain's tests.
enum Fixtures {
    static let transcripts: String = {
        RepositoryFiles.path("Tests/PodcastDomainTests/Fixtures/transcripts")
    }()

    static let names = ["zencastr-excerpt.txt", "sample-transcript-hhmmss.txt", "time-range-sample.txt"]

    static func path(_ name: String) -> String { transcripts + "/" + name }
}

/// Bytes handed from a reading thread.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}
