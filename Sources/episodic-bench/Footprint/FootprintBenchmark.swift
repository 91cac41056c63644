import ArgumentParser
import Episodic
import EventLog
import Foundation
import Projections

/// `episodic-bench footprint`: what the read models cost on the million-event library of `projections`
/// (2,000 transcripts of 50 to 100 KB, shared by some 16,000 live episodes): `episodic log verify` and
/// `episodic projections rebuild --all`, each run as `episodic` is run, in a child process, its wall
/// time and peak resident memory (taken through GNU `time`, so that the bench's own memory is not
/// counted); the read models' size on disk against the compacted log's and the blobs'; and the
/// latency of a search.
struct FootprintBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "footprint",
        abstract: "Measures verify and a full rebuild (time, peak memory), the read models' size, and search latency.")

    @Option(help: "A folder to work in; its `main` library is the one `projections` makes. (default: ./.bench/projections-<pid>; an existing one needs --keep)")
    var library: String?

    @Option(help: "Events in the library.")
    var events = 1_000_000

    @Option(help: "Distinct transcripts in the library.")
    var transcripts = 2_000

    @Option(help: "Decisions grouped into one commit while generating.")
    var decisionsPerCommit = 250

    @Option(help: "Rounds of a rebuild then a verify; medians are reported.")
    var rounds = 3

    @Option(help: "Timed searches of each query.")
    var searches = 50

    @Flag(help: "Keep the folder afterwards; a later run with the same --library reuses its library.")
    var keep = false

    @Flag(help: "Also print the figures as one JSON object, alone on stdout (the readable lines go to stderr).")
    var json = false

    static let peakTargetBytes: UInt64 = 300_000_000
    static let verifyTarget = 1.5
    static let sizeTarget = 1.5

    func validate() throws {
        guard events >= 100_000 else { throw ValidationError("--events must be at least 100,000.") }
        guard transcripts >= 10 else { throw ValidationError("--transcripts must be at least 10.") }
        guard rounds >= 1, searches >= 1 else { throw ValidationError("--rounds and --searches must be at least 1.") }
    }

    func run() throws {
        let binary = try Spawn.episodic()
        let folder = try ProjectionsFolder.open(library, keep: keep)
        defer { if !keep { folder.remove() } }
        let report = Report(jsonOutput: json)
        report.folder(folder.root, kept: keep)
        let main = try GeneratedLibrary.prepare(
            .main(events: events, transcripts: transcripts, decisionsPerCommit: decisionsPerCommit),
            at: folder.main, label: "generation", report: report)
        try run(binary, ["log", "compact", "--quiet"], on: main.path)
        // Opening the library replays what an older build left, so that no round below pays for it.
        try run(binary, ["projections", "status", "--quiet"], on: main.path)

        var rebuilds: [Spawn.Measured] = []
        var verifies: [Spawn.Measured] = []
        for _ in 0..<rounds {
            rebuilds.append(try run(binary, ["projections", "rebuild", "--all", "--quiet"], on: main.path))
            verifies.append(try run(binary, ["log", "verify", "--quiet"], on: main.path))
        }
        let rebuild = rebuilds.map(\.seconds).median, verify = verifies.map(\.seconds).median
        let rebuildPeak = rebuilds.map(\.peakBytes).max()!, verifyPeak = verifies.map(\.peakBytes).max()!
        for (label, seconds, peak, all) in [("rebuild --all", rebuild, rebuildPeak, rebuilds), ("log verify", verify, verifyPeak, verifies)] {
            report.line(
                label,
                "\(seconds.grouped(decimals: 1)) s, median of \(rounds) (\(all.map { $0.seconds.grouped(decimals: 1) }.joined(separator: ", "))); "
                    + "peak RSS \(RebuildFigures.megabytes(peak)) (target <= \(RebuildFigures.megabytes(Self.peakTargetBytes)))"
                    + RebuildFigures.verdict(peak <= Self.peakTargetBytes))
        }
        let allRate = Double(main.events) / rebuild
        report.line(
            "rebuild --all rate",
            "\(allRate.grouped()) events/s: \(main.events.grouped()) events into all three read models (sidebar, episode-detail, "
                + "search, whose transcripts are read from the blobs), the whole command from spawn to exit")
        report.line(
            "verify / rebuild",
            "\((verify / rebuild).grouped(decimals: 2))x, medians of the same rounds (target <= \(Self.verifyTarget.grouped(decimals: 1))x)"
                + RebuildFigures.verdict(verify / rebuild <= Self.verifyTarget))
        report.value("events", main.events)
        report.value("rebuildSeconds", rebuild)
        report.value("rebuildAllEventsPerSecond", allRate)
        report.value("rebuildPeakRSSBytes", Int(rebuildPeak))
        report.value("verifySeconds", verify)
        report.value("verifyPeakRSSBytes", Int(verifyPeak))

        let usage = try Library(at: main.path).info().diskUsage
        let sources = usage.log + usage.blobs
        let ratio = Double(usage.readModels) / Double(sources)
        report.line(
            "read models on disk",
            "\(RebuildFigures.megabytes(usage.readModels)) (read/ and read.sqlite, WALs included) against "
                + "\(RebuildFigures.megabytes(sources)) of compacted log (\(RebuildFigures.megabytes(usage.log))) and blobs "
                + "(\(RebuildFigures.megabytes(usage.blobs))): \(ratio.grouped(decimals: 2))x (target <= \(Self.sizeTarget.grouped(decimals: 1))x)"
                + RebuildFigures.verdict(ratio <= Self.sizeTarget))
        report.value("readModelBytes", Int(usage.readModels))
        report.value("logBytes", Int(usage.log))
        report.value("blobBytes", Int(usage.blobs))

        try SearchLatency.measure(library: main.path, runs: searches, report: report)
        report.finish()
    }

    /// Runs `episodic arguments --library path`, which must succeed.
    @discardableResult
    private func run(_ binary: String, _ arguments: [String], on path: String) throws -> Spawn.Measured {
        let measured = try Spawn.measureAlone(binary, arguments + ["--library", path])
        guard measured.status == 0 else {
            throw BenchFailure("`episodic \(arguments.joined(separator: " ")) --library \(path)` exited with \(measured.status)")
        }
        return measured
    }
}
