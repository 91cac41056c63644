import EventLog
import Projections

/// Latency of `ReadModel.search` (20 hits, with their snippets), as `episodic search` runs it: a word in
/// nearly every transcript, a rare one, two words, and a prefix being typed. Each query is timed in turn,
/// after a few untimed rounds.
enum SearchLatency {
    static let queries = ["the", "Nairobi", "coffee morning", "fermen"]

    static func measure(library: String, runs: Int, report: Report) throws {
        let log = try EventLog(at: library)
        let model = try ReadModel(library: library, log: log)
        var samples = Array(repeating: [Double](), count: queries.count)
        var hits = Array(repeating: 0, count: queries.count)
        for round in -3..<runs {
            for (index, query) in queries.enumerated() {
                let seconds = try timed { hits[index] = try model.search(query).count }
                if round >= 0 { samples[index].append(seconds * 1_000) }
            }
        }
        for (index, query) in queries.enumerated() {
            report.line(
                "search \"\(query)\"",
                "\(hits[index]) hits: p50 \(samples[index].median.grouped(decimals: 2)) ms, "
                    + "p99 \(samples[index].nearestRank(99).grouped(decimals: 2)) ms over \(runs) runs")
            report.value("search" + query.filter(\.isLetter).capitalized + "P50Milliseconds", samples[index].median)
        }
    }
}
