import EventLog
import Foundation
import Testing

/// Real `episodic` processes writing to one library at once, killed with SIGKILL at random moments.
@Suite("SIGKILL storm")
struct SigkillStormTests {
    /// One command of the storm, and what it said if it lived to say it.
    struct Outcome {
        var arguments: [String]
        var killed: Bool
        var status: Int32
        var output: [String: Any]?
    }

    @Test("commands killed at random moments never lose a change another command was told was done")
    func storm() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Storm")
        let transcript = try String(contentsOfFile: Fixtures.path("zencastr-excerpt.txt"), encoding: .utf8)
        var random = SystemRandomNumberGenerator()
        var episodes: [String] = []
        var outcomes: [Outcome] = []
        var running: [(process: CLI.Running, arguments: [String], started: ContinuousClock.Instant, killAt: ContinuousClock.Instant?)] = []
        var counter = 0
        // How long a command takes, so that kills land anywhere in one, the write path included.
        var typical = Duration.milliseconds(150)
        let clock = ContinuousClock()
        let end = clock.now + .seconds(4)

        func nextArguments() throws -> [String] {
            counter += 1
            switch (Int.random(in: 0..<10, using: &random), episodes.randomElement(using: &random)) {
            case (0..<4, _), (_, nil):
                return ["episode", "create", "Storm", "Episode \(counter)"]
            case (4..<7, let episode?):
                return ["episode", "retitle", episode, "Retitled \(counter)"]
            case (_, let episode?):
                // Content no other import had: a new blob, often in a new shard.
                let file = try cli.write(transcript.replacingOccurrences(of: "Welcome back", with: "Welcome back \(counter)"), to: "t\(counter).txt")
                return ["transcript", "import", episode, file]
            }
        }

        while clock.now < end || !running.isEmpty {
            while clock.now < end && running.count < 4 {
                let arguments = try nextArguments() + ["--json"]
                let killAt = Bool.random(using: &random) ? clock.now + typical * Double.random(in: 0...1.2, using: &random) : nil
                running.append((try cli.start(arguments), arguments, clock.now, killAt))
            }
            usleep(500)
            for (i, entry) in running.enumerated().reversed() {
                if entry.process.process.isRunning {
                    if let killAt = entry.killAt, clock.now >= killAt { kill(entry.process.process.processIdentifier, SIGKILL) }
                    continue
                }
                running.remove(at: i)
                let run = entry.process.finish()
                let killed = entry.process.process.terminationReason == .uncaughtSignal
                let output = run.status == 0 ? (try? run.json()) as? [String: Any] : nil
                outcomes.append(Outcome(arguments: entry.arguments, killed: killed, status: run.status, output: output))
                if !killed {
                    #expect(run.status == 0, "`episodic \(entry.arguments.joined(separator: " "))` failed: \(run.err)")
                    typical = (typical * 3 + (clock.now - entry.started)) / 4
                }
                if let created = output?["created"] as? String { episodes.append(created) }
            }
        }

        // A writer sets aside whatever the last killed command left half-written; then all must check out.
        try cli.must("episode", "create", "Storm", "After the storm")
        let verify = try cli.run("log", "verify")
        #expect(verify.status == 0, "\(verify.out)\(verify.err)")

        let events = try EventLog(at: cli.library).events()
        let acknowledged = outcomes.compactMap(\.output)
        var lost = Acknowledged.missing(acknowledged, in: events)
        let listed = Set(try cli.list("episode", "list", "Storm").compactMap { $0["id"] as? String })
        for episode in episodes where !listed.contains(episode) { lost.append("episode \(episode) is not listed") }

        let killed = outcomes.filter(\.killed).count
        let kinds = Dictionary(grouping: acknowledged, by: { $0["command"] as? String ?? "?" }).mapValues(\.count)
        print("SIGKILL storm: \(outcomes.count) commands started, \(killed) killed, \(acknowledged.count) acknowledged results checked "
            + "(\(kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))), \(lost.count) lost")
        #expect(lost.isEmpty, "\(lost.prefix(5))")
        #expect(killed > 0 && acknowledged.count > 0, "the storm must both kill and finish commands")
    }
}
