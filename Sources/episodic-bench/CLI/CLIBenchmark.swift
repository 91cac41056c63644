import ArgumentParser
import Episodic
import EventCodec
import EventLog
import Foundation
import PodcastDomain

/// `episodic-bench cli`: the wall time of one `episodic` invocation that submits a command, on a
/// library of 10,000 events and on one of 1,000,000, in the same run. What is timed is a real child
/// process, from spawn to exit, doing the whole write path: open the library, take the lock, fold the
/// episode's stream, decide, append with fsync, project.
struct CLIBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cli", abstract: "Measures one `episodic` command's latency on a small and a large library.")

    @Option(help: "A folder to work in. (default: ./.bench/cli-<pid>; an existing one needs --keep)")
    var library: String?

    @Option(help: "Events in the large library.")
    var events = 1_000_000

    @Option(help: "Events in the small library.")
    var smallEvents = 10_000

    @Option(help: "Timed invocations on each library, alternating between them.")
    var runs = 100

    @Flag(help: "Keep the folder afterwards; a later run with the same --library reuses its libraries.")
    var keep = false

    @Flag(help: "Also print the figures as one JSON object, alone on stdout (the readable lines go to stderr).")
    var json = false

    func validate() throws {
        guard smallEvents >= 5_000, events > smallEvents else {
            throw ValidationError("--small-events must be at least 5,000 and below --events.")
        }
        guard runs >= 10 else { throw ValidationError("--runs must be at least 10.") }
    }

    func run() throws {
        let binary = try Spawn.episodic()
        let folder = try ProjectionsFolder.open(library, keep: keep)
        defer { if !keep { folder.remove() } }
        let report = Report(jsonOutput: json)
        report.folder(folder.root, kept: keep)

        // The timed commands write to copies: the generated libraries stay as generated, for the next
        // run with --keep to reuse, and every run measures the same libraries.
        let small = try CLITarget.prepare(events: smallEvents, at: folder.root + "/cli-small", label: "small library", report: report)
            .workingCopy(at: folder.root + "/cli-small.run")
        let large = try CLITarget.prepare(events: events, at: folder.root + "/cli-large", label: "large library", report: report)
            .workingCopy(at: folder.root + "/cli-large.run")
        defer { for target in [small, large] { try? FileManager.default.removeItem(atPath: target.path) } }

        // Each round also runs `episodic --help`, which opens no library: the floor of any command
        // (the process's start and exit), measured in the same run; an episode's creation in the
        // large library's big podcast, whose decision folds the podcast's own long stream; and the
        // retitle of an episode with a transcript, whose search entry is written again with all its words.
        var times: [[Double]] = [[], [], [], [], []]
        for round in -3..<runs {  // three rounds to warm the page cache, not counted
            for (index, target) in [small, large].enumerated() {
                let seconds = try target.retitle(with: binary, round: round)
                if round >= 0 { times[index].append(seconds * 1_000) }
            }
            var status: Int32 = 0
            let help = try timed { status = try Spawn.run(binary, ["--help"]) }
            guard status == 0 else { throw BenchFailure("`episodic --help` exited with \(status)") }
            if round >= 0 { times[2].append(help * 1_000) }
            let create = try large.createEpisode(with: binary, round: round)
            if round >= 0 { times[3].append(create * 1_000) }
            let transcribed = try large.retitle(with: binary, round: round, transcribed: true)
            if round >= 0 { times[4].append(transcribed * 1_000) }
        }
        for (index, target) in [small, large].enumerated() {
            let p50 = times[index].median
            report.line(
                "submit, \(target.events.grouped()) events",
                "p50 \(p50.grouped(decimals: 2)) ms, p99 \(times[index].nearestRank(99).grouped(decimals: 2)) ms "
                    + "(`episodic episode retitle`, \(runs) runs; target p50 ≤ 20 ms)")
            report.value(index == 0 ? "smallP50Milliseconds" : "largeP50Milliseconds", p50)
        }
        let ratio = times[1].median / times[0].median
        report.line("large / small", "\(ratio.grouped(decimals: 2))x the small library's p50 (target: no growth)")
        report.value("largeOverSmall", ratio)
        let help = times[2].median
        let overHelp = times[1].median / help
        report.line(
            "episodic --help", "p50 \(help.grouped(decimals: 2)) ms; the large library's retitle takes "
                + "\(overHelp.grouped(decimals: 2))x it (target <= 2x)")
        report.value("helpP50Milliseconds", help)
        report.value("largeOverHelp", overHelp)
        let create = times[3].median
        report.line(
            "create, \(large.events.grouped()) events",
            "p50 \(create.grouped(decimals: 2)) ms, p99 \(times[3].nearestRank(99).grouped(decimals: 2)) ms (`episodic episode "
                + "create` in the big podcast, whose own stream held \(large.podcastEvents.grouped()) events at the start; "
                + "\((create / times[1].median).grouped(decimals: 2))x the retitle's p50)")
        report.value("largeCreateP50Milliseconds", create)
        let transcribed = times[4].median
        report.line(
            "retitle, transcript",
            "p50 \(transcribed.grouped(decimals: 2)) ms, p99 \(times[4].nearestRank(99).grouped(decimals: 2)) ms (an episode of the "
                + "big podcast with a \(large.transcriptBytes.grouped()) byte transcript, \(runs) runs); "
                + "\((transcribed / help).grouped(decimals: 2))x `episodic --help` (target <= 2x)")
        report.value("largeTranscribedP50Milliseconds", transcribed)
        report.value("largeTranscribedOverHelp", transcribed / help)
        report.finish()
    }
}

/// A generated library made ready for the CLI: read models built, and an episode of its big podcast
/// to retitle.
struct CLITarget {
    let path: String
    let events: Int
    let podcast: PodcastID
    /// The events of the podcast's own stream when the library was prepared.
    let podcastEvents: Int
    /// The big podcast's highest-numbered episode: it has no transcript, as the newest seldom has.
    let episode: String
    /// Its highest-numbered episode with a transcript, whose bytes a retitle indexes again for search.
    let transcribedEpisode: String
    let transcriptBytes: Int

    static func prepare(events: Int, at path: String, label: String, report: Report) throws -> CLITarget {
        let generated = try GeneratedLibrary.prepare(plan(events: events), at: path, label: label, report: report)
        let library = try Library(at: path)
        let model = try library.currentReadModel()
        let newest = try model.episodes(EpisodeQuery(podcast: generated.bigPodcast, sort: .numberDescending, limit: 1_000))
        guard let number = newest.first?.number else {
            throw BenchFailure("the generated podcast \(generated.bigPodcast) has no episodes")
        }
        guard let transcribed = newest.first(where: \.hasTranscript), let transcript = try model.episode(transcribed.id)?.transcript else {
            throw BenchFailure("none of the generated podcast \(generated.bigPodcast)'s newest episodes has a transcript")
        }
        var podcastEvents = 0
        try library.log.read(stream: StreamID(domain: generated.bigPodcast.streamName)) { _ in podcastEvents += 1 }
        return CLITarget(
            path: path, events: generated.events, podcast: generated.bigPodcast, podcastEvents: podcastEvents,
            episode: "\(generated.bigPodcast)/\(number)", transcribedEpisode: "\(generated.bigPodcast)/\(transcribed.number)",
            transcriptBytes: transcript.byteCount)
    }

    /// The same shows whatever the size, so that only the log's length differs; commits of ten
    /// decisions, as a script would submit them (one command per commit is lighter still).
    static func plan(events: Int) -> LibraryPlan {
        LibraryPlan(
            events: events, podcasts: 10, bigPodcastEpisodes: 2_000, otherEpisodes: 60...200,
            transcripts: 20, transcriptBytes: 20 * 1_024...40 * 1_024, imageScale: 1, images: 10,
            decisionsPerCommit: 10, seed: 0xC11)
    }

    /// The same episode in a copy of this library at `path` (a clone of it).
    func copy(at path: String) -> CLITarget {
        CLITarget(
            path: path, events: events, podcast: podcast, podcastEvents: podcastEvents, episode: episode,
            transcribedEpisode: transcribedEpisode, transcriptBytes: transcriptBytes)
    }

    /// The same episode in a fresh copy of this library's folder at `path`, whatever was there before
    /// removed: timed commands change the copy, never the generated library.
    ///
    /// The copy is written to the disk before it is used: its pages would otherwise still be dirty
    /// while the commands are timed, and a command whose fsync or checkpoint met them would wait for
    /// them (the large library's retitle p99 15.2 ms unsynced, 11.0 ms synced; p50 unchanged).
    func workingCopy(at path: String) throws -> CLITarget {
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: self.path, toPath: path)
        sync()
        return copy(at: path)
    }

    /// Runs `episodic episode retitle` once, of ``episode`` or of ``transcribedEpisode``; returns its
    /// wall time in seconds.
    func retitle(with binary: String, round: Int, transcribed: Bool = false) throws -> Double {
        try time(binary, ["episode", "retitle", transcribed ? transcribedEpisode : episode, "Retitled \(round)"])
    }

    /// Runs `episodic episode create` in the podcast once; returns its wall time in seconds.
    func createEpisode(with binary: String, round: Int) throws -> Double {
        try time(binary, ["episode", "create", podcast.description, "Created \(round)"])
    }

    /// Runs `episodic` with `command` on this library, as the bench actor, quietly; its wall time in seconds.
    private func time(_ binary: String, _ command: [String]) throws -> Double {
        let arguments = command + ["--library", path, "--actor", "bench", "--quiet"]
        var status: Int32 = 0
        let seconds = try timed { status = try Spawn.run(binary, arguments) }
        guard status == 0 else {
            throw BenchFailure("`episodic \(arguments.joined(separator: " "))` exited with \(status)")
        }
        return seconds
    }
}
