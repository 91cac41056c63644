import Projections

/// Latency of one podcast's episode list through `ReadModel.episodes`: every row, as the app's list
/// loads it. The two libraries are queried in turn, run after run, so that both meet the same noise.
struct ListLatency {
    struct Variant {
        let label: String
        let key: String
        let sort: EpisodeSort
        let search: String?
        var limit: Int? = nil
    }

    static let variants = [
        Variant(label: "episode list", key: "list", sort: .default, search: nil),
        Variant(label: "episode list by title", key: "listByTitle", sort: .title, search: nil),
        Variant(label: "episode list search \"guide\"", key: "listSearch", sort: .default, search: "guide"),
        // Not a target: what a list that loads its rows a page at a time would pay.
        Variant(label: "episode list, first 100", key: "listFirstPage", sort: .default, search: nil, limit: 100),
    ]

    /// Milliseconds of each run, and the rows the last run returned.
    struct Sample {
        var milliseconds: [Double] = []
        var rows = 0
        var p50: Double { milliseconds.nearestRank(50) }
        var p99: Double { milliseconds.nearestRank(99) }
    }

    /// `runs` timed queries of `variant` on each model, alternating, after a few untimed ones.
    static func measure(_ variant: Variant, on models: [(ReadModel, EpisodeQuery)], runs: Int) throws -> [Sample] {
        var samples = Array(repeating: Sample(), count: models.count)
        for round in -5..<runs {
            for (i, (model, base)) in models.enumerated() {
                var query = base
                query.sort = variant.sort
                query.search = variant.search
                query.limit = variant.limit
                var rows = 0
                let seconds = try timed { rows = try model.episodes(query).count }
                samples[i].rows = rows
                if round >= 0 { samples[i].milliseconds.append(seconds * 1_000) }
            }
        }
        return samples
    }
}

extension Array where Element == Double {
    /// Nearest-rank percentile: the smallest value with at least `percent`% of the values at or below it.
    func nearestRank(_ percent: Int) -> Double {
        precondition(!isEmpty, "the percentile of no runs")
        let sorted = self.sorted()
        let rank = (percent * sorted.count + 99) / 100
        return sorted[Swift.max(rank, 1) - 1]
    }
}
