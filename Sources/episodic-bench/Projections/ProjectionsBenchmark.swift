import ArgumentParser
import EventLog
import Foundation
import PodcastDomain
import Projections

/// `episodic-bench projections`: full rebuilds of the read models from a generated million-event
/// library, and the latency of a 10,000-episode list, on this machine.
struct ProjectionsBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "projections",
        abstract: "Measures read-model rebuilds and episode-list queries on a generated library.")

    @Option(help: "A folder to work in. (default: ./.bench/projections-<pid>; an existing one needs --keep)")
    var library: String?

    @Option(help: "Events in the main library.")
    var events = 1_000_000

    @Option(help: "Events in the library with blobs ten times larger (at least its creations, ~90,000).")
    var tenfoldEvents = 150_000

    @Option(help: "Distinct transcripts in the main library (the tenfold library has a tenth of them).")
    var transcripts = 2_000

    @Option(help: "Decisions grouped into one commit while generating.")
    var decisionsPerCommit = 250

    @Option(help: "Full rebuilds of sidebar + episode-detail; the median is reported.")
    var rebuilds = 3

    @Option(help: "Timed queries of each episode list.")
    var runs = 200

    @Flag(inversion: .prefixedNo, help: "Rebuild the search projector alone, if this build has one.")
    var search = true

    @Option(help: "Events in the 2,000-episode library the search projector is rebuilt from (0: the main library, which takes over five minutes).")
    var searchEvents = 250_000

    @Flag(inversion: .prefixedNo, help: "Time the rebuild's steps separately, on one core (scan, plan, decode).")
    var breakdown = true

    @Flag(help: "Keep the folder afterwards; a later run with the same --library reuses its libraries.")
    var keep = false

    @Flag(help: "Also print the figures as one JSON object, alone on stdout (the readable lines go to stderr).")
    var json = false

    func validate() throws {
        guard events >= 100_000 else { throw ValidationError("--events must be at least 100,000.") }
        guard searchEvents >= 0 else { throw ValidationError("--search-events must not be negative.") }
        guard tenfoldEvents >= 1 else { throw ValidationError("--tenfold-events must be positive.") }
        guard transcripts >= 10 else { throw ValidationError("--transcripts must be at least 10.") }
        guard decisionsPerCommit >= 1 else { throw ValidationError("--decisions-per-commit must be at least 1.") }
        guard rebuilds >= 1, runs >= 1 else { throw ValidationError("--rebuilds and --runs must be at least 1.") }
    }

    func run() throws {
        let folder = try ProjectionsFolder.open(library, keep: keep)
        defer { if !keep { folder.remove() } }
        let report = Report(jsonOutput: json)
        report.folder(folder.root, kept: keep)
        report.value("library", folder.root)

        let main = try GeneratedLibrary.prepare(
            .main(events: events, transcripts: transcripts, decisionsPerCommit: decisionsPerCommit),
            at: folder.main, label: "generation", report: report)
        report.value("events", main.events)
        main.seconds.map { report.value("generationSeconds", $0) }

        let rebuildSeconds = try RebuildFigures.sidebarAndDetail(library: main, rebuilds: rebuilds, report: report)
        if search { try searchFigure(main: main, folder: folder, report: report) }
        if breakdown { try RebuildFigures.breakdown(library: main, rebuildSeconds: rebuildSeconds, report: report) }

        let tenfold = try GeneratedLibrary.prepare(
            .tenfold(events: tenfoldEvents, transcripts: max(10, transcripts / 10), decisionsPerCommit: decisionsPerCommit),
            at: folder.tenfold, label: "10x-blob generation", report: report)
        let tenfoldRebuild = try RebuildMeasurement.run(library: tenfold.path, projectors: "sidebar,episode-detail")
        report.line(
            "10x-blob rebuild",
            "\(tenfold.events.grouped()) events: \(tenfoldRebuild.eventsPerSecond.grouped()) events/s, "
                + "peak RSS \(RebuildFigures.megabytes(tenfoldRebuild.peakBytes)) (only to build its read model)")
        report.value("tenfoldEvents", tenfold.events)
        report.value("tenfoldRebuildEventsPerSecond", tenfoldRebuild.eventsPerSecond)

        try ListFigures.measure(main: main, tenfold: tenfold, runs: runs, report: report)
        report.finish()
    }

    /// Figure 3, on the search library (or the main one with `--search-events 0`).
    private func searchFigure(main: GeneratedLibrary, folder: ProjectionsFolder, report: Report) throws {
        let library = searchEvents == 0 ? main : try GeneratedLibrary.prepare(
            .search(events: searchEvents, transcripts: max(10, transcripts / 4), decisionsPerCommit: decisionsPerCommit),
            at: folder.searchLibrary, label: "search-library generation", report: report)
        try RebuildFigures.search(library: library, readModels: folder.searchReadModels, report: report)
    }
}
