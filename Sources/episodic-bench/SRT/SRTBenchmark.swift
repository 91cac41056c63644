import ArgumentParser
import CoreValues
import Foundation
import PodcastDomain

/// `episodic-bench srt`: transcript-to-SRT conversion time on a generated ~100 KB Zencastr transcript
/// (target: under 50 ms) and on the transcript fixtures, as median and p99 over rounds. Beside each, in
/// the same rounds, the floor any converter pays: reading the transcript into turns alone
/// (``SubtitleConversion/check(_:strict:)``), without breaking and timing the cues.
struct SRTBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "srt",
        abstract: "Measures transcript-to-SRT conversion on a generated transcript and on the fixtures.")

    @Option(help: "Conversions timed per transcript.")
    var rounds = 50

    @Option(help: "Size of the generated Zencastr transcript, in KB (1,024 bytes).")
    var kilobytes = 100

    @Option(help: "The folder of transcript fixtures; skipped when it does not exist. (default: the package's)")
    var fixtures: String?

    @Option(help: ArgumentHelp(
        "Also write a generated hour of two hosts talking (crosstalk, sparse stamps, silences) to this file, "
            + "to measure its subtitles with any tool.", valueName: "path"))
    var writeEpisode: String?

    @Flag(help: "Also print the figures as one JSON object, alone on stdout (the readable lines go to stderr).")
    var json = false

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1.") }
        guard kilobytes >= 1 else { throw ValidationError("--kilobytes must be at least 1.") }
    }

    func run() throws {
        let report = Report(jsonOutput: json)
        var random = SplitMix64(seed: 0x5_2791)
        let generated = GeneratedTranscript.zencastr(bytes: kilobytes * 1_024, using: &random)
        try measure("generated Zencastr", generated, key: "generated", report: report, target: " (target < 50 ms)")
        // One turn as long as the whole transcript: wrapping and time sharing must stay linear.
        let monologue = GeneratedTranscript.monologue(bytes: kilobytes * 1_024, using: &random)
        try measure("generated single turn", monologue, key: "monologue", report: report, target: " (target < 50 ms)")

        let episode = ConversationTranscript.make(seconds: 3_600, seed: 0xE915_0DE)
        try measure("generated hour of talk", episode, key: "hour", report: report, target: "")
        if let writeEpisode { try episode.write(toFile: writeEpisode, atomically: true, encoding: .utf8) }

        let folder = fixtureFolder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?
            .filter { $0.hasSuffix(".txt") }.sorted() ?? []
        if names.isEmpty { report.line("fixtures", "none found in \(folder.path); skipped") }
        for name in names {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            let key = name.prefix { $0 != "." }.split(separator: "-").enumerated()
                .map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
            try measure(name, text, key: key, report: report, target: "")
        }
        report.finish()
    }

    /// `--fixtures`, or the package's fixture folder, found from this source file so that the
    /// benchmark runs from any working directory.
    private var fixtureFolder: URL {
        if let fixtures { return URL(fileURLWithPath: fixtures, isDirectory: true) }
        // This file is Sources/episodic-bench/SRT/SRTBenchmark.swift.
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/PodcastDomainTests/Fixtures/transcripts")
    }

    /// Times `rounds` conversions of `text`, each beside a reading of it alone, and prints its size,
    /// its cues, the conversion's median and p99, and the reading's median.
    private func measure(_ label: String, _ text: String, key: String, report: Report, target: String) throws {
        var subtitles: Subtitles?
        var milliseconds: [Double] = [], reading: [Double] = []
        milliseconds.reserveCapacity(rounds)
        reading.reserveCapacity(rounds)
        for _ in 0..<rounds {
            milliseconds.append(try timed { subtitles = try SubtitleConversion.convert(text) } * 1_000)
            reading.append(try timed { _ = try SubtitleConversion.check(text) } * 1_000)
        }
        guard let subtitles else { throw BenchFailure("\(label): no conversion ran") }
        let kilobytes = Double(text.utf8.count) / 1_024
        let p99 = milliseconds.percentile(99)
        report.line(
            label,
            "\(kilobytes.grouped(decimals: 1)) KB, \(subtitles.format.rawValue), "
                + "\(subtitles.cues.count.grouped()) cues: "
                + "median \(milliseconds.median.grouped(decimals: 3)) ms, p99 \(p99.grouped(decimals: 3)) ms "
                + "over \(rounds) runs\(target); reading it alone \(reading.median.grouped(decimals: 3)) ms, "
                + "so \((milliseconds.median / reading.median).grouped(decimals: 2))x the floor")
        report.value(key + "ReadingMedianMilliseconds", reading.median)
        report.value(key + "Kilobytes", kilobytes)
        report.value(key + "Cues", subtitles.cues.count)
        report.value(key + "MedianMilliseconds", milliseconds.median)
        report.value(key + "P99Milliseconds", p99)
    }
}

extension Array where Element == Double {
    /// Nearest-rank percentile: the smallest value with at least `percent`% of the values at or below it.
    fileprivate func percentile(_ percent: Int) -> Double {
        precondition(!isEmpty, "the percentile of no rounds")
        let sorted = self.sorted()
        let rank = (percent * sorted.count + 99) / 100
        return sorted[Swift.max(rank, 1) - 1]
    }
}

/// A Zencastr transcript with the shape of a real one: two hosts and a guest, turns from a word to a
/// long monologue, some without a speaker line, timestamps past the hour.
private enum GeneratedTranscript {
    static let speakers = ["James", "Frank", "Maya Okafor", ""]
    static let words = """
        so I think the thing about event sourcing is that you never lose what happened and that is \
        really the whole point right we keep every fact and build the views from them later which \
        means replay is cheap and migrations are just new projections yeah exactly and the log is \
        append only so a crash can only damage the tail OK but what about performance well it turns \
        out that sequential writes are fast on every disk we tried even the old ones in the studio
        """.split(separator: " ")

    static func zencastr(bytes: Int, using random: inout SplitMix64) -> String {
        var text = ""
        text.reserveCapacity(bytes + 1_024)
        var centiseconds = 29
        while text.utf8.count < bytes {
            text += clock(centiseconds) + "\n"
            if let speaker = speakers.randomElement(using: &random), !speaker.isEmpty { text += speaker + "\n" }
            let length = Int.random(in: 0...9, using: &random) == 0
                ? Int.random(in: 60...240, using: &random) : Int.random(in: 1...30, using: &random)
            var turn: [Substring] = []
            for _ in 0..<length { turn.append(words.randomElement(using: &random) ?? "so") }
            if let first = turn.first { turn[0] = Substring(first.prefix(1).uppercased() + first.dropFirst()) }
            text += turn.joined(separator: " ") + ".\n\n"
            centiseconds += length * 35 + Int.random(in: 50...400, using: &random)
        }
        return text
    }

    /// One timestamp, one speaker, then `bytes` of speech on a single line.
    static func monologue(bytes: Int, using random: inout SplitMix64) -> String {
        var text = "00:00.00\nJames\n"
        text.reserveCapacity(bytes + 64)
        while text.utf8.count < bytes {
            text += words.randomElement(using: &random) ?? "so"
            text += " "
        }
        return text + "\n"
    }

    /// `MM:SS.cc`, minutes past 59 as Zencastr writes them.
    private static func clock(_ centiseconds: Int) -> String {
        let minutes = centiseconds / 6_000, seconds = centiseconds / 100 % 60, fraction = centiseconds % 100
        return String(format: "%02d:%02d.%02d", minutes, seconds, fraction)
    }
}
