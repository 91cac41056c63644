import ArgumentParser
import CoreValues
import Foundation

/// `episodic-bench submit`: `episodic submit` of scripts like the peer comparison's (episodes
/// created, then retitled, a fifth of the commands transcript imports), one command per commit: one
/// process alone, then four at once on four podcasts of one library, rounds alternating. Each is
/// timed from spawn to exit, on a library made fresh for it. Beside the ratio it prints the ceiling the
/// machine puts on it, measured in the same run: the cores there are over the cores one process keeps
/// busy (its CPU time over its wall time).
struct SubmitBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit", abstract: "Measures `episodic submit`: one process, and four at once on one library.")

    @Option(help: "A folder to work in. (default: ./.bench/submit-<pid>; removed at the end)")
    var library: String?

    @Option(help: "Commands in each process's script.")
    var commands = 5_000

    @Option(help: "Rounds of one process, then four.")
    var rounds = 3

    @Flag(help: "Also print the figures as one JSON object, alone on stdout (the readable lines go to stderr).")
    var json = false

    static let concurrency = 4
    static let target = 2.0

    func validate() throws {
        guard commands >= 100 else { throw ValidationError("--commands must be at least 100.") }
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1.") }
    }

    func run() throws {
        let binary = try Spawn.episodic()
        let folder = try BenchFolder.create(at: library ?? ".bench/submit-\(getpid())")
        defer { folder.remove() }
        let report = Report(jsonOutput: json)
        report.folder(folder.root, kept: false)
        let scripts = try (1...Self.concurrency).map { podcast in
            let path = folder.root + "/script-\(podcast).jsonl"
            try Self.script(podcast: "Podcast \(podcast)", commands: commands, seed: UInt64(podcast)).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        var alone: [Double] = [], together: [Double] = []
        // Cores kept busy: CPU time over wall time, for one process and for the four together.
        var aloneBusy: [Double] = [], togetherBusy: [Double] = []
        for round in 1...rounds {
            let one = try Self.library(in: folder.root + "/alone-\(round)", binary: binary)
            let started = ContinuousClock.now
            let single = Spawn.wait(for: try Spawn.start(binary, ["submit", scripts[0], "--quiet"] + one), since: started)
            try Self.check(single)
            alone.append(Double(commands) / single.seconds)
            aloneBusy.append(single.cpuSeconds / single.seconds)

            let four = try Self.library(in: folder.root + "/together-\(round)", binary: binary)
            let begun = ContinuousClock.now
            let pids = try scripts.map { try Spawn.start(binary, ["submit", $0, "--quiet"] + four) }
            var cpu = 0.0
            for pid in pids {
                let each = Spawn.wait(for: pid, since: begun)
                try Self.check(each)
                cpu += each.cpuSeconds
            }
            let seconds = (ContinuousClock.now - begun).seconds
            together.append(Double(commands * Self.concurrency) / seconds)
            togetherBusy.append(cpu / seconds)
        }
        let ratio = together.median / alone.median
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // Four processes cannot go faster than the cores let them: with no lock at all, at most the
        // cores they can keep busy over the cores one keeps busy.
        let ceiling = Double(min(cores, Self.concurrency)) / aloneBusy.median
        report.line(
            "one process",
            "\(alone.median.grouped()) commands/s, median of \(rounds) (\(commands.grouped()) commands, one commit each), "
                + "keeping \(aloneBusy.median.grouped(decimals: 2)) cores busy")
        report.line(
            "\(Self.concurrency) processes at once",
            "\(together.median.grouped()) commands/s in all, median of \(rounds): \(ratio.grouped(decimals: 2))x one process "
                + "(target >= \(Self.target.grouped(decimals: 0))x), keeping \(togetherBusy.median.grouped(decimals: 2)) of \(cores) cores busy")
        report.line(
            "ceiling on this machine",
            "\(ceiling.grouped(decimals: 2))x one process: \(min(cores, Self.concurrency)) cores over the \(aloneBusy.median.grouped(decimals: 2)) "
                + "one process keeps busy, were nothing serialized")
        report.value("aloneCommandsPerSecond", alone.median)
        report.value("togetherCommandsPerSecond", together.median)
        report.value("togetherOverAlone", ratio)
        report.value("aloneCoresBusy", aloneBusy.median)
        report.value("togetherCoresBusy", togetherBusy.median)
        report.value("ceilingOverAlone", ceiling)
        report.finish()
    }

    /// A fresh library at `path` with the scripts' podcasts; the arguments that name it and the actor.
    static func library(in path: String, binary: String) throws -> [String] {
        try check(Spawn.measure(binary, ["init", "--library", path]))
        let arguments = ["--library", path, "--actor", "bench"]
        for podcast in 1...concurrency { try check(Spawn.measure(binary, ["podcast", "create", "Podcast \(podcast)"] + arguments)) }
        return arguments
    }

    static func check(_ measured: Spawn.Measured) throws {
        guard measured.status == 0 else { throw BenchFailure("episodic exited with \(measured.status)") }
    }

    /// One podcast's script: a tenth episode creations, then retitles (80 %) and transcript imports
    /// (20 %, 200 to 800 words in Zencastr's form) of episodes drawn at random, as the peer workload.
    static func script(podcast: String, commands: Int, seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        let words = ("the of and to a in is it you that he was for on are with as I his they be at one have this from "
            + "podcast episode guest interview startup founder swift compiler database latency honestly basically like um").split(separator: " ")
        func text(_ count: Int) -> String { (0..<count).map { _ in String(words[Int(random.next() % UInt64(words.count))]) }.joined(separator: " ") }
        func escaped(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: "\\n") }
        let episodes = max(commands / 10, 1)
        var lines: [String] = []
        for n in 1...episodes {
            lines.append(#"{"command":"episode.create","podcast":"\#(podcast)","title":"\#(text(6)) \#(n)"}"#)
        }
        for _ in episodes..<commands {
            let episode = "\(podcast)/\(1 + Int(random.next() % UInt64(episodes)))"
            if random.next() % 5 == 0 {
                var turns: [String] = [], seconds = 0.0, left = 200 + Int(random.next() % 600)
                while left > 0 {
                    let count = min(left, 20 + Int(random.next() % 40))
                    left -= count
                    seconds += 2 + Double(random.next() % 700) / 100
                    let time = String(format: "%02d:%05.2f", Int(seconds) / 60, seconds.truncatingRemainder(dividingBy: 60))
                    turns.append("\(time)\n\(random.next() % 2 == 0 ? "Anna" : "Ben")\n\(text(count))\n")
                }
                lines.append(#"{"command":"transcript.import","episode":"\#(episode)","text":"\#(escaped(turns.joined(separator: "\n")))"}"#)
            } else {
                lines.append(#"{"command":"episode.retitle","episode":"\#(episode)","title":"\#(text(6))"}"#)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
