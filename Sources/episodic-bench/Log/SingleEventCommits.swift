import CoreValues
import EventLog
import Foundation

/// Durable single-event commits, measured against raw write+fsync of the same size on the same disk.
///
/// Raw and log rounds alternate, so that both meet the same disk weather (a neighbour's burst of
/// writes, the host's cache), and the ratio compares their medians. Each log round is one
/// `EventLog.write` (one lock) around its appends, and every append fsyncs.
struct SingleEventCommits {
    /// Commits before measuring: they create the segment, warm the caches, and give the average frame size.
    static let warmUpCommits = 100

    let log: EventLog
    let rawFile: String
    let rounds: Int
    let commitsPerRound: Int

    func run(studio: inout GeneratedCommits, report: Report) throws {
        let frameBytes = try warmUp(&studio)
        var random = SplitMix64(seed: 0xF5_1C)
        var raw = RawAppends(path: rawFile, recordBytes: frameBytes, random: &random)
        let first = log.head.next
        let bytesBefore = try BenchFolder.segmentBytes(ofLibrary: log.path)
        var rawRates: [Double] = [], commitRates: [Double] = []
        for _ in 0..<rounds {
            rawRates.append(try raw.round(commitsPerRound))
            let commits = (0..<commitsPerRound).map { _ in studio.commit(of: 1) }
            let seconds = try timed {
                try log.write { writer in
                    for commit in commits { try writer.append(commit) }
                }
            }
            commitRates.append(Double(commitsPerRound) / seconds)
        }
        let appended = Double(rounds * commitsPerRound)
        let frames = Double(try BenchFolder.segmentBytes(ofLibrary: log.path) - bytesBefore) / appended
        let json = Double(try jsonBytes(from: first)) / appended

        let rate = rawRates.median, commitRate = commitRates.median, percent = 100 * commitRate / rate
        report.line(
            "single-event commit frame", "\(frames.grouped()) bytes on disk for \(json.grouped()) bytes of JSON (average)")
        report.line(
            "single-event rounds",
            "\(rounds) x \(commitsPerRound), alternating; raw: \(Self.list(rawRates)), log: \(Self.list(commitRates)) ops/s")
        report.line("raw write+fsync", "\(rate.grouped()) ops/s (\(frameBytes)-byte records)")
        report.line("durable single-event commits", "\(commitRate.grouped()) commits/s")
        report.line("commits / raw fsync", "\(percent.grouped(decimals: 1)) % (target >= 70 %)")
        report.value("recordBytes", frameBytes)
        report.value("singleEventFrameBytes", frames)
        report.value("singleEventJSONBytes", json)
        report.value("rawFsyncOpsPerSecond", rate)
        report.value("singleEventCommitsPerSecond", commitRate)
        report.value("commitToRawPercent", percent)
    }

    /// Appends the warm-up commits and returns their average frame size. The first commit also writes
    /// the segment's header, so it is left out of the average.
    private func warmUp(_ studio: inout GeneratedCommits) throws -> Int {
        try log.write { writer in
            try writer.append(studio.commit(of: 1))
            let start = try BenchFolder.segmentBytes(ofLibrary: log.path)
            for _ in 1..<Self.warmUpCommits { try writer.append(studio.commit(of: 1)) }
            let end = try BenchFolder.segmentBytes(ofLibrary: log.path)
            return Int((Double(end - start) / Double(Self.warmUpCommits - 1)).rounded())
        }
    }

    /// The JSON lines (newlines included) of the events from `first` to the head.
    private func jsonBytes(from first: LogPosition) throws -> Int {
        var total = 0
        try log.read(from: first) { total += $0.line.count + 1 }
        return total
    }

    private static func list(_ rates: [Double]) -> String {
        rates.map { $0.grouped() }.joined(separator: " ")
    }
}
