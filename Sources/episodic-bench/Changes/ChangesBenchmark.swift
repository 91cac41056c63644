import ArgumentParser
import Episodic
import Foundation
import Synchronization

/// `episodic-bench changes`: an app embedding the library, as issue 49 measures it.
///
/// - How soon `Library.changes(after:)` yields a commit another process made: `episodic episode
///   retitle` runs, one after another, while this process follows the log; each gap is from the
///   writer's exit (the commit is durable by then) to the change reaching the loop. A negative gap is a
///   change seen before the writer had exited.
/// - Single commands through one `LibraryPool` from 32 tasks, against one `episodic submit` process
///   running the same commands one commit each, rounds alternating, each on a library of its own.
struct ChangesBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes", abstract: "Measures an embedding app: changes seen from another process, and 32 tasks submitting through one pool.")

    @Option(help: "A folder to work in. (default: ./.bench/changes-<pid>; removed at the end)")
    var library: String?

    @Option(help: "Commits by another process to time.")
    var runs = 100

    @Option(help: "Retitles in each round of the throughput comparison.")
    var commands = 2_000

    @Option(help: "Rounds of the throughput comparison.")
    var rounds = 3

    @Flag(help: "Also print the figures as one JSON object, alone on stdout (the readable lines go to stderr).")
    var json = false

    static let tasks = 32

    func validate() throws {
        guard runs >= 10 else { throw ValidationError("--runs must be at least 10.") }
        guard commands >= Self.tasks else { throw ValidationError("--commands must be at least \(Self.tasks).") }
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1.") }
    }

    func run() throws {
        let binary = try Spawn.episodic()
        let folder = try BenchFolder.create(at: library ?? ".bench/changes-\(getpid())")
        defer { folder.remove() }
        let report = Report(jsonOutput: json)
        report.folder(folder.root, kept: false)
        try latency(binary, at: folder.root + "/follow", report: report)
        try throughput(binary, in: folder.root, report: report)
        report.finish()
    }

    // MARK: Seen from another process

    /// When each change reached the loop, by the position it ends at.
    final class Arrivals: Sendable {
        let times = Mutex<[LogPosition: ContinuousClock.Instant]>([:])
    }

    func latency(_ binary: String, at path: String, report: Report) throws {
        let arguments = ["--library", path, "--actor", "bench"]
        try check(Spawn.measure(binary, ["init", "--library", path]))
        try check(Spawn.measure(binary, ["podcast", "create", "Show"] + arguments))
        try check(Spawn.measure(binary, ["episode", "create", "Show", "One"] + arguments))
        let library = try Library(at: path)
        let changes = library.changes(after: library.head)
        let arrivals = Arrivals()
        let follower = Task {
            for try await change in changes {
                let now = ContinuousClock.now
                arrivals.times.withLock { $0[change.positions.upperBound] = now }
            }
        }
        defer { follower.cancel() }
        var gaps: [Double] = [], writers: [Double] = []
        for run in 1...runs {
            let started = ContinuousClock.now
            let written = Spawn.wait(for: try Spawn.start(binary, ["episode", "retitle", "Show/1", "Take \(run)"] + arguments), since: started)
            try check(written)
            let exited = ContinuousClock.now
            writers.append(written.seconds * 1_000)
            let position = LogPosition(library.head.rawValue + UInt64(run))
            let deadline = exited + .seconds(10)
            while arrivals.times.withLock({ $0[position] }) == nil {
                guard ContinuousClock.now < deadline else { throw BenchFailure("the change at \(position) was not seen within 10 s") }
                usleep(50)
            }
            let seen = arrivals.times.withLock { $0[position]! }
            gaps.append((seen - exited).seconds * 1_000)
        }
        let sorted = gaps.sorted()
        let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
        let early = gaps.filter { $0 < 0 }.count
        report.line(
            "seen from another process",
            "p50 \(gaps.median.grouped(decimals: 2)) ms, p99 \(p99.grouped(decimals: 2)) ms after the writer's exit "
                + "(\(early) of \(runs) seen before it; target p50 <= 5 ms, p99 <= 50 ms; the writer took p50 \(writers.median.grouped(decimals: 2)) ms)")
        report.value("changeSeenP50Milliseconds", gaps.median)
        report.value("changeSeenP99Milliseconds", p99)
        report.value("changesSeenBeforeWriterExit", early)
    }

    // MARK: 32 tasks through one pool

    func throughput(_ binary: String, in root: String, report: Report) throws {
        var pooled: [Double] = [], process: [Double] = []
        for round in 1...rounds {
            for first in round % 2 == 1 ? [true, false] : [false, true] {
                let path = root + "/\(first ? "pool" : "submit")-\(round)"
                let episodes = try prepare(binary, at: path)
                if first {
                    pooled.append(try pool(at: path, episodes: episodes))
                } else {
                    let script = path + ".jsonl"
                    try retitles(episodes).map { #"{"command":"episode.retitle","episode":"\#($0.0)","title":"\#($0.1)"}"# }
                        .joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
                    let measured = try Spawn.measure(binary, ["submit", script, "--quiet", "--library", path, "--actor", "bench"])
                    try check(measured)
                    process.append(Double(commands) / measured.seconds)
                }
            }
        }
        let ratio = pooled.median / process.median
        report.line(
            "\(Self.tasks) tasks, one pool",
            "\(pooled.median.grouped()) commands/s, median of \(rounds) (\(commands.grouped()) retitles, one commit each): "
                + "\(ratio.grouped(decimals: 2))x one `episodic submit` process on the same commands (\(process.median.grouped()) commands/s; target >= 1x)")
        report.value("poolCommandsPerSecond", pooled.median)
        report.value("submitProcessCommandsPerSecond", process.median)
        report.value("poolOverSubmitProcess", ratio)
    }

    /// A library at `path` with one podcast and an episode per task; the episodes' references.
    func prepare(_ binary: String, at path: String) throws -> [String] {
        let arguments = ["--library", path, "--actor", "bench"]
        try check(Spawn.measure(binary, ["init", "--library", path]))
        try check(Spawn.measure(binary, ["podcast", "create", "Show"] + arguments))
        let script = path + "-episodes.jsonl"
        try (1...Self.tasks).map { #"{"command":"episode.create","podcast":"Show","title":"Episode \#($0)"}"# }
            .joined(separator: "\n").write(toFile: script, atomically: true, encoding: .utf8)
        try check(Spawn.measure(binary, ["submit", script, "--quiet"] + arguments))
        return (1...Self.tasks).map { "Show/\($0)" }
    }

    /// The retitles of a round, task by task: each task's share of `commands`, on its own episode.
    func retitles(_ episodes: [String]) -> [(String, String)] {
        (0..<commands).map { (episodes[$0 % episodes.count], "Take \($0)") }
    }

    /// Commands a second that 32 tasks submit through one pool, one command per call.
    func pool(at path: String, episodes: [String]) throws -> Double {
        let work = retitles(episodes)
        let outcome = Mutex<Result<Double, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let commands = self.commands
        Task {
            let result = await Result(catching: { () async throws -> Double in
                let pool = try LibraryPool(at: path)
                let started = ContinuousClock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for task in 0..<Self.tasks {
                        group.addTask {
                            for (episode, title) in work.enumerated().filter({ $0.offset % Self.tasks == task }).map(\.element) {
                                let report = try await pool.submit([Submission(.episode(.text(episode), .retitle(title)))], actor: "bench")
                                _ = try report.results[0].get()
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                return Double(commands) / (ContinuousClock.now - started).seconds
            })
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    func check(_ measured: Spawn.Measured) throws { try SubmitBenchmark.check(measured) }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing `body`.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
