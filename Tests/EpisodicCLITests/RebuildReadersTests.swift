import Foundation
import Testing

/// Readers running beside `projections rebuild --all` see no error at all, and never a half-built read
/// model: every read is a complete answer. All of them real processes.
@Suite("Readers during rebuilds")
struct RebuildReadersTests {
    /// What the readers saw.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var reads = 0
        private(set) var failures: [String] = []
        func add(_ failure: String?) {
            lock.withLock {
                reads += 1
                if let failure { failures.append(failure) }
            }
        }
    }

    @Test(
        "readers in a loop beside repeated rebuilds: every read exits 0, says nothing on stderr, and is whole",
        arguments: [(episodes: 30, rebuilds: 60), (episodes: 2_000, rebuilds: 4)])
    func readersBesideRebuilds(episodes: Int, rebuilds: Int) throws {
        // EPISODIC_TRIALS_SCALE=10 runs ten times as many rebuilds, for figures.
        let rebuilds = rebuilds * (ProcessInfo.processInfo.environment["EPISODIC_TRIALS_SCALE"].flatMap(Int.init) ?? 1)
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        let lines = (1...episodes).map { #"{"command":"episode.create","podcast":"Show","title":"Episode \#($0)"}"# }
        try cli.must("submit", "--atomic", input: lines.joined(separator: "\n"))

        // The CLI only reads its settings: the reader threads share it.
        nonisolated(unsafe) let shared = cli
        let tally = Tally()
        let done = Tally()  // its `reads` counts the rebuilds finished
        let readers = (0..<3).map { reader in
            Thread {
                var turn = reader
                while done.reads < rebuilds {
                    turn += 1
                    tally.add(Self.read(shared, turn: turn, episodes: episodes))
                }
            }
        }
        readers.forEach { $0.start() }
        var rebuildFailures: [String] = []
        for _ in 0..<rebuilds {
            let run = try cli.run("projections", "rebuild", "--all")
            if run.status != 0 { rebuildFailures.append(run.err) }
            done.add(nil)
        }
        while readers.contains(where: { !$0.isFinished }) { usleep(10_000) }

        print("readers during rebuilds (\(episodes + 1) events, \(rebuilds) rebuilds): \(tally.reads) reads, \(tally.failures.count) failures")
        #expect(rebuildFailures.isEmpty, "\(rebuildFailures.prefix(3))")
        #expect(tally.reads > rebuilds)
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(5))")
        // What the rebuilds left behind goes with the next writer: the live generation alone remains.
        try cli.must("episode", "create", "Show", "Last")
        let files = LibraryFiles.readModelFiles(cli.library)
        #expect(try files == LibraryFiles.liveGenerationFiles(cli.library), "\(files)")
    }

    /// One read, by turns a list, a podcast's counts, an episode and a search; nil when it was whole
    /// and quiet, else what went wrong.
    static func read(_ cli: CLI, turn: Int, episodes: Int) -> String? {
        let arguments: [String] = switch turn % 4 {
        case 0: ["episode", "list", "Show", "--limit", "5", "--json"]
        case 1: ["podcast", "list", "--json"]
        case 2: ["episode", "show", "Show/\(turn % episodes + 1)", "--json"]
        default: ["search", "Episode", "--json"]
        }
        guard let run = try? cli.run(arguments) else { return "\(arguments): could not start" }
        guard run.status == 0, run.err.isEmpty else { return "\(arguments) exited \(run.status): \(run.err)" }
        guard let json = try? run.json() else { return "\(arguments): not JSON: \(run.out)" }
        let whole: Bool = switch turn % 4 {
        case 0: (json as? [[String: Any]])?.count == 5
        case 1: (json as? [[String: Any]])?.first?["episodeCount"] as? Int == episodes
        case 2: (json as? [String: Any])?["number"] as? Int == turn % episodes + 1
        default: ((json as? [[String: Any]])?.count ?? 0) > 0
        }
        return whole ? nil : "\(arguments): a partial answer: \(run.out.prefix(300))"
    }
}
