import ArgumentParser
import CoreValues
import Foundation
import Synchronization

/// `episodic-bench submit`: `episodic submit` of scripts like the peer comparison's (episodes
/// created, then retitled, a fifth of the commands transcript imports), one command per commit: one
/// process alone, then four at once on four podcasts of one library, rounds alternating. Each is
/// timed from spawn to exit, on a library made fresh for it. Beside the ratio it prints the ceiling the
/// machine puts on it, measured in the same run: the cores there are over the cores one process keeps
/// busy (its CPU time over its wall time).
///
/// Then the same for single commands: one `episodic episode retitle` after another, by one worker,
/// then by four at once, each on an episode of its own podcast, so that every command waits for the
/// writer lock that the others take and let go.
struct SubmitBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit", abstract: "Measures `episodic submit`: one process, and four at once on one library.")

    @Option(help: "A folder to work in. (default: ./.bench/submit-<pid>; removed at the end)")
    var library: String?

    @Option(help: "Commands in each process's script.")
    var commands = 5_000

    @Option(help: "Rounds of one process, then four.")
    var rounds = 3

    @Option(help: "Single commands each worker runs in a row, in each round.")
    var singleCommands = 100

    @Flag(help: "Also print the figures as one JSON object, alone on stdout (the readable lines go to stderr).")
    var json = false

    static let concurrency = 4
    static let target = 2.0

    func validate() throws {
        guard commands >= 100 else { throw ValidationError("--commands must be at least 100.") }
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1.") }
        guard singleCommands >= 10 else { throw ValidationError("--single-commands must be at least 10.") }
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
        let ceiling = Self.ceiling(busy: aloneBusy.median)
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
        try singles(binary: binary, in: folder.root, report: report)
        report.finish()
    }

    /// Single commands in a row, by one worker and by four at once, each round on a fresh library.
    func singles(binary: String, in root: String, report: Report) throws {
        var alone: [Double] = [], together: [Double] = [], aloneBusy: [Double] = []
        for round in 1...rounds {
            let arguments = try Self.library(in: root + "/singles-\(round)", binary: binary)
            for podcast in 1...Self.concurrency {
                try Self.check(Spawn.measure(binary, ["episode", "create", "Podcast \(podcast)", "Episode"] + arguments))
            }
            let one = try Self.retitles(binary, arguments, workers: 1, count: singleCommands)
            alone.append(one.commandsPerSecond)
            aloneBusy.append(one.coresBusy)
            together.append(try Self.retitles(binary, arguments, workers: Self.concurrency, count: singleCommands).commandsPerSecond)
        }
        let ratio = together.median / alone.median
        let ceiling = Self.ceiling(busy: aloneBusy.median)
        report.line(
            "single commands, one worker",
            "\(alone.median.grouped()) commands/s, median of \(rounds) (\(singleCommands.grouped()) `episodic episode retitle` in a row), "
                + "keeping \(aloneBusy.median.grouped(decimals: 2)) cores busy")
        report.line(
            "\(Self.concurrency) workers at once",
            "\(together.median.grouped()) commands/s in all, median of \(rounds): \(ratio.grouped(decimals: 2))x one worker "
                + "(ceiling on this machine \(ceiling.grouped(decimals: 2))x)")
        report.value("singleAloneCommandsPerSecond", alone.median)
        report.value("singleTogetherCommandsPerSecond", together.median)
        report.value("singleTogetherOverAlone", ratio)
        report.value("singleCeilingOverAlone", ceiling)
    }

    /// `workers` threads, each running `count` retitles of episode 1 of its own podcast one after
    /// another; how many commands a second they made in all, and the cores their processes kept busy.
    static func retitles(_ binary: String, _ arguments: [String], workers: Int, count: Int) throws -> (commandsPerSecond: Double, coresBusy: Double) {
        let failures = Mutex<[any Error]>([])
        let cpu = Mutex(0.0)
        let started = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do {
                for i in 1...count {
                    let measured = try Spawn.measure(binary, ["episode", "retitle", "Podcast \(worker + 1)/1", "Take \(i)"] + arguments)
                    try check(measured)
                    cpu.withLock { $0 += measured.cpuSeconds }
                }
            } catch {
                failures.withLock { $0.append(error) }
            }
        }
        let seconds = (ContinuousClock.now - started).seconds
        if let failure = failures.withLock({ $0.first }) { throw failure }
        return (Double(workers * count) / seconds, cpu.withLock { $0 } / seconds)
    }

    /// How much faster than one, at most, four can go on this machine's cores, one keeping `busy` cores
    /// busy: with no lock at all, the cores they can keep busy over the cores one keeps busy.
    static func ceiling(busy: Double) -> Double {
        Double(min(ProcessInfo.processInfo.activeProcessorCount, concurrency)) / busy
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
                    // In whole hundredths first: rounding the seconds alone wrote 59.996 as `00:60.00`.
                    let hundredths = Int((seconds * 100).rounded())
                    let time = String(format: "%02d:%02d.%02d", hundredths / 6000, hundredths / 100 % 60, hundredths % 100)
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
