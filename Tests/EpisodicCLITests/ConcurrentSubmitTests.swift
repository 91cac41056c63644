import EventLog
import Foundation
import Testing

/// Several `episodic submit` processes writing to one library at once, each group's results printed
/// once its commits are on disk.
@Suite("Concurrent submits")
struct ConcurrentSubmitTests {
    /// A script for one podcast: `episodes` creations, then retitles of them, `commands` lines in all.
    static func script(podcast: String, episodes: Int, commands: Int) -> String {
        (0..<commands).map { i in
            i < episodes
                ? #"{"command":"episode.create","podcast":"\#(podcast)","title":"Episode \#(i + 1)"}"#
                : #"{"command":"episode.retitle","episode":"\#(podcast)/\#(i % episodes + 1)","title":"Take \#(i)"}"#
        }.joined(separator: "\n") + "\n"
    }

    /// `submit` with a lock timeout long enough for a loaded machine: each submit holds the writer lock
    /// for its whole script (one group), and the last to get it waits for the other three, which on a
    /// busy machine can pass the default 10 s; giving up then is a refusal to wait (75), not what these
    /// tests are about.
    static let submit = ["submit", "--json", "--lock-timeout", "600"]

    /// Waits for every child at once: each drains its own pipes, so that none stalls on a full one.
    static func finishAll(_ running: [CLI.Running]) -> [CLI.Run] {
        let runs = LockedRuns(count: running.count)
        DispatchQueue.concurrentPerform(iterations: running.count) { runs.set($0, running[$0].finish()) }
        return runs.all
    }

    @Test("four submits at once all land, and every result printed is in the log")
    func takeTurns() throws {
        // Given a library with four podcasts
        let cli = CLI()
        try cli.must("init")
        for p in 1...4 { try cli.must("podcast", "create", "Show \(p)") }

        // When four scripts of 1,500 commands are submitted at once
        let running = try (1...4).map { p in
            try cli.start(Self.submit, input: Self.script(podcast: "Show \(p)", episodes: 200, commands: 1_500))
        }
        let runs = Self.finishAll(running)

        // Then all succeed, each result printed is in the log where it says
        for run in runs { #expect(run.status == 0, "\(run.err)") }
        let events = try EventLog(at: cli.library).events()
        #expect(events.count == 4 + 4 * 1_500)
        #expect(runs.flatMap { Acknowledged.missing(Acknowledged.results(in: $0.out), in: events) }.isEmpty)
        #expect(try cli.run("log", "verify").status == 0)
    }

    @Test("submits killed at random moments never lose a result they printed")
    func killedSubmits() throws {
        let cli = CLI()
        try cli.must("init")
        for p in 1...4 { try cli.must("podcast", "create", "Show \(p)") }
        var random = SystemRandomNumberGenerator()
        var killed = 0
        var printed = 0
        for round in 1...3 {
            // Given four submits running at once
            let running = try (1...4).map { p in
                try cli.start(Self.submit, input: Self.script(podcast: "Show \(p)", episodes: 100 * round, commands: 1_000))
            }
            // When two of them are killed at random moments
            for victim in running.shuffled(using: &random).prefix(2) {
                usleep(UInt32.random(in: 20_000...600_000, using: &random))
                if victim.process.isRunning {
                    kill(victim.process.processIdentifier, SIGKILL)
                    killed += 1
                }
            }
            let runs = Self.finishAll(running)

            // Then every result any of them printed is in the log, and the log verifies
            let events = try EventLog(at: cli.library).events()
            let missing = runs.flatMap { Acknowledged.missing(Acknowledged.results(in: $0.out), in: events) }
            #expect(missing.isEmpty, "round \(round): \(missing.prefix(3))")
            printed += runs.map { $0.out.split(separator: "\n").count }.reduce(0, +)
            for run in runs where !run.signaled { #expect(run.status == 0, "\(run.err)") }
        }
        try cli.must("episode", "create", "Show 1", "After the kills")
        #expect(try cli.run("log", "verify").status == 0)
        print("concurrent submits: \(killed) killed, \(printed) result lines checked")
        #expect(killed > 0)
    }
}

/// Results filled in from several threads.
private final class LockedRuns: @unchecked Sendable {
    private let lock = NSLock()
    private var runs: [CLI.Run?]
    init(count: Int) { runs = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ run: CLI.Run) { lock.withLock { runs[index] = run } }
    var all: [CLI.Run] { lock.withLock { runs.map { $0! } } }
}
