import ArgumentParser
import EventLog
import Foundation

/// `episodic-bench log`: durable commits against the raw disk, large commits, sequential reads and
/// compaction, each printed as soon as it is measured.
struct LogBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Measures the event log: durable commits against raw fsync, large commits, scans and compaction.")

    @Option(help: "A folder to work in, which must not exist yet. (default: ./.bench/log-<pid>)")
    var library: String?

    @Option(help: "Events in the log that is scanned and compacted.")
    var events = 1_000_000

    @Option(help: "Rounds of each commit measurement; figures are medians over rounds.")
    var rounds = 5

    @Option(help: "Single-event commits, and raw writes, per round.")
    var commits = 400

    @Flag(help: "Keep the folder afterwards.")
    var keep = false

    @Flag(help: "Also print the figures as one JSON object, alone on stdout (the readable lines go to stderr).")
    var json = false

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1.") }
        guard commits >= 10 else { throw ValidationError("--commits must be at least 10.") }
        guard events >= BulkLog.minimumEvents else {
            throw ValidationError("--events must be at least \(BulkLog.minimumEvents.grouped()), so that compaction has sealed segments.")
        }
    }

    func run() throws {
        let folder = try BenchFolder.create(at: library)
        defer { if !keep { folder.remove() } }
        let report = Report(jsonOutput: json)
        report.folder(folder.root, kept: keep)
        report.value("library", folder.root)

        let log = try EventLog.create(at: folder.commitLibrary)
        var studio = try GeneratedCommits(seed: 0xC0_4417, blobs: log.blobs)
        try SingleEventCommits(log: log, rawFile: folder.rawFile, rounds: rounds, commitsPerRound: commits)
            .run(studio: &studio, report: report)
        try LargeCommits(log: log, rounds: rounds).run(studio: &studio, report: report)

        let bulk = try BulkLog.write(events: events, at: folder.bulkLibrary, report: report)
        let json = try BulkLog.jsonBytes(library: folder.bulkLibrary)
        let scan = try EnvelopeScan.eventsPerSecond(library: folder.bulkLibrary, made: bulk)
        report.line(
            "sequential envelope reads",
            "\(scan.grouped()) events/s (target >= 1,000,000)" + (try Self.againstLz4(scan, json, events, folder, report, key: "scan")))
        report.value("scanEventsPerSecond", scan)

        try CompactionBenchmark.run(library: folder.bulkLibrary, json: json, report: report)
        let compactedScan = try EnvelopeScan.eventsPerSecond(library: folder.bulkLibrary, made: bulk)
        report.line(
            "reads after compaction",
            "\(compactedScan.grouped()) events/s" + (try Self.againstLz4(compactedScan, json, events, folder, report, key: "compactedScan")))
        report.value("compactedScanEventsPerSecond", compactedScan)

        if let peak = ResidentMemory.peakBytes() {
            report.line("peak RSS", peak.mebibytes)
            report.value("peakRSSBytes", Int(peak))
        }
        report.finish()
    }

    /// The scan's rate in MB/s of JSON, next to `lz4 -dc` over the same files (the reference decoder,
    /// which parses nothing), measured now; both kept as `<key>JSONMegabytesPerSecond` and
    /// `<key>Lz4MegabytesPerSecond`.
    private static func againstLz4(
        _ eventsPerSecond: Double, _ json: Int, _ events: Int, _ folder: BenchFolder, _ report: Report, key: String
    ) throws -> String {
        let megabytes = Double(json) / 1_000_000
        let scanRate = megabytes * eventsPerSecond / Double(events)
        report.value(key + "JSONMegabytesPerSecond", scanRate)
        guard let seconds = try Lz4Peer.decodeSeconds(library: folder.bulkLibrary) else {
            return "; \(scanRate.grouped()) MB/s of JSON (lz4 not installed: no peer)"
        }
        report.value(key + "Lz4MegabytesPerSecond", megabytes / seconds)
        return "; \(scanRate.grouped()) MB/s of JSON, against \((megabytes / seconds).grouped()) MB/s for `lz4 -dc` of the same files"
    }
}
