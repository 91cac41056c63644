import EventLog
import Projections

/// Figures 4 and 5: the 10,000-episode list of both libraries, queried in turn, and how the library
/// with ten-times-larger blobs compares (it must not be slower: lists never read a blob).
enum ListFigures {
    static let p50Target = 5.0

    static func measure(main: GeneratedLibrary, tenfold: GeneratedLibrary, runs: Int, report: Report) throws {
        let projectors: [any Projector] = [SidebarProjector(), EpisodeDetailProjector()]
        let models = try [main, tenfold].map { library in
            (try ReadModel(library: library.path, log: EventLog(at: library.path), projectors: projectors),
             EpisodeQuery(podcast: library.bigPodcast))
        }
        for variant in ListLatency.variants {
            let samples = try ListLatency.measure(variant, on: models, runs: runs)
            let (one, ten) = (samples[0], samples[1])
            if variant.search == nil, variant.limit == nil, one.rows != 10_000 || ten.rows != 10_000 {
                throw BenchFailure("the big podcast lists \(one.rows) and \(ten.rows) episodes, not 10,000")
            }
            let target = variant.search == nil && variant.sort == .default && variant.limit == nil
                ? " (target p50 <= \(p50Target.grouped()) ms)" + RebuildFigures.verdict(one.p50 <= p50Target) : ""
            report.line(
                variant.label,
                "\(one.rows.grouped()) rows: p50 \(one.p50.grouped(decimals: 2)) ms, p99 \(one.p99.grouped(decimals: 2)) ms "
                    + "over \(runs) runs\(target)")
            let ratio = ten.p50 / one.p50
            report.line(
                "  10x blobs",
                "\(ten.rows.grouped()) rows: p50 \(ten.p50.grouped(decimals: 2)) ms, p99 \(ten.p99.grouped(decimals: 2)) ms; "
                    + "p50 ratio \(ratio.grouped(decimals: 2)) to 1x blobs"
                    + (ratio <= 1.1 ? " -- not slower (within 10 %)" : " -- SLOWER"))
            report.value(variant.key + "Rows", one.rows)
            report.value(variant.key + "P50Milliseconds", one.p50)
            report.value(variant.key + "P99Milliseconds", one.p99)
            report.value(variant.key + "TenfoldP50Milliseconds", ten.p50)
            report.value(variant.key + "TenfoldP99Milliseconds", ten.p99)
            report.value(variant.key + "TenfoldRatio", ratio)
        }
    }
}
