import EventLog
import Foundation

/// Figures 2 and 3, and the breakdown: full rebuilds in child processes, their median rate and peak
/// memory against the targets, and where the time goes.
enum RebuildFigures {
    static let rateTarget = 500_000.0
    static let rateAim = 1_000_000.0
    static let peakTargetBytes: UInt64 = 200_000_000

    /// The median rebuild's seconds, for the breakdown.
    @discardableResult
    static func sidebarAndDetail(library: GeneratedLibrary, rebuilds: Int, report: Report) throws -> Double {
        var measured: [RebuildMeasurement] = []
        for _ in 0..<rebuilds {
            measured.append(try RebuildMeasurement.run(library: library.path, projectors: "sidebar,episode-detail"))
        }
        let rates = measured.map(\.eventsPerSecond)
        let rate = rates.median
        let peak = measured.map(\.peakBytes).max()!
        let baseline = measured.map(\.baselineBytes).max()!
        let reset = measured.allSatisfy(\.peakReset)
        report.line(
            "rebuild rounds",
            "\(rebuilds) x \(library.events.grouped()) events, sidebar + episode-detail: "
                + rates.map { $0.grouped() }.joined(separator: " ") + " events/s")
        report.line(
            "rebuild rate",
            "\(rate.grouped()) events/s, median of \(rebuilds) (target >= \(rateTarget.grouped()), aim \(rateAim.grouped()))"
                + verdict(rate >= rateTarget)
                + "; two read models of three, sidebar and episode-detail: search, which reads the transcripts, is "
                + "measured apart below, and `footprint` times all three (`episodic projections rebuild --all`)")
        let scan = try plainScanRate(library.path)
        report.line(
            "plain read of the log",
            "\(scan.grouped()) events/s, median of 3 on one core: each envelope's position and type, nothing decoded "
                + "(the rebuild runs at \((100 * rate / scan).grouped(decimals: 0)) % of it)")
        report.value("plainScanEventsPerSecond", scan)
        report.line(
            "rebuild peak RSS",
            "\(megabytes(peak)) (target <= \(megabytes(peakTargetBytes)))" + verdict(peak <= peakTargetBytes) + "; "
                + (reset
                    ? "VmHWM of a child process, reset to its \(megabytes(baseline)) RSS just before the rebuild; highest of \(rebuilds)"
                    : "VmHWM of a whole child process (the peak could not be reset); highest of \(rebuilds)"))
        report.value("rebuildEventsPerSecond", rate)
        report.value("rebuildPeakRSSBytes", Int(peak))
        report.value("rebuildBaselineRSSBytes", Int(baseline))
        return measured.map(\.seconds).median
    }

    /// Figure 3: the search projector alone, in a child process, and the transcript text it read: the
    /// blob reads counted as the projector made them, next to the same reads made alone.
    static func search(library: GeneratedLibrary, readModels: String, report: Report) throws {
        let measured = try RebuildMeasurement.run(library: library.path, readModels: readModels, projectors: "search")
        let rate = Double(measured.blobBytes) / 1_000_000 / measured.seconds
        let alone = Double(measured.blobBytes) / 1_000_000 / measured.blobSeconds
        report.line(
            "search rebuild",
            "\(rate.grouped(decimals: 1)) MB/s of transcript text read and indexed: \(megabytes(UInt64(measured.blobBytes))) "
                + "in \(measured.blobReads.grouped()) blob reads, counted as the projector made them, in "
                + "\(measured.seconds.grouped(decimals: 1)) s from \(library.events.grouped()) events "
                + "(\((Double(library.events) / measured.seconds).grouped()) events/s), peak RSS \(megabytes(measured.peakBytes))")
        report.line(
            "search: blob reads alone",
            "\(alone.grouped(decimals: 1)) MB/s: the same \(measured.blobReads.grouped()) reads again, warm, with nothing indexed "
                + "(\((100 * measured.blobSeconds / measured.seconds).grouped(decimals: 1)) % of the rebuild's time)")
        report.value("searchMegabytesPerSecond", rate)
        report.value("searchRebuildSeconds", measured.seconds)
        report.value("searchIndexedBytes", measured.blobBytes)
        report.value("searchBlobReads", measured.blobReads)
        report.value("searchBlobReadMegabytesPerSecond", alone)
        report.value("searchPeakRSSBytes", Int(measured.peakBytes))
    }

    /// The rebuild's steps timed one at a time on one core, in this process.
    static func breakdown(library: GeneratedLibrary, rebuildSeconds: Double, report: Report) throws {
        let steps = try RebuildBreakdown.measure(library: library.path)
        let events = Double(steps.events)
        func share(_ seconds: Double) -> String { "\((100 * seconds / rebuildSeconds).grouped(decimals: 0)) % of the rebuild's time" }
        report.line("step: log scan", "\((events / steps.scanSeconds).grouped()) events/s, \(steps.scanSeconds.grouped(decimals: 2)) s on one core, \(share(steps.scanSeconds))")
        report.line(
            "step: plan (first read)",
            "\(steps.planSeconds.grouped(decimals: 2)) s on one core, \(share(steps.planSeconds)): \(steps.needed.grouped()) of "
                + "\(steps.events.grouped()) events needed by the final states (\((100 * Double(steps.needed) / events).grouped(decimals: 0)) %)")
        report.line(
            "step: check the chain",
            "\(steps.chainSeconds.grouped(decimals: 2)) s on one core, \(share(steps.chainSeconds)): every line's head read with "
                + "each commit hashed and its prev compared (\(steps.chainedHeadsSeconds.grouped(decimals: 2)) s) less the same "
                + "read without (\(steps.headsSeconds.grouped(decimals: 2)) s), medians of 3; the rebuild does it on every core")
        report.line(
            "step: decode the needed",
            "\(steps.neededDecodeSeconds.grouped(decimals: 2)) s on one core, \(share(steps.neededDecodeSeconds)) "
                + "(every payload: \(steps.allDecodeSeconds.grouped(decimals: 2)) s); the rebuild reads twice and decodes on every core")
        for heavy in steps.heaviestTypes(5) {
            report.line(
                "decode " + heavy.type,
                "\(heavy.count.grouped()) events, \(heavy.microseconds.grouped(decimals: 1)) us each, "
                    + "\((100 * heavy.share).grouped(decimals: 0)) % of the time to decode every payload")
        }
        report.value("scanSeconds", steps.scanSeconds)
        report.value("planSeconds", steps.planSeconds)
        report.value("chainCheckSeconds", steps.chainSeconds)
        report.value("neededEvents", steps.needed)
        report.value("neededDecodeSeconds", steps.neededDecodeSeconds)
        report.value("allDecodeSeconds", steps.allDecodeSeconds)
    }

    /// The log read in order in this process, warm, touching each envelope's position and type: the
    /// floor under a rebuild's first read.
    static func plainScanRate(_ library: String) throws -> Double {
        var rates: [Double] = []
        for _ in 0..<3 {
            let log = try EventLog(at: library)
            var events = 0, sum: UInt64 = 0
            let seconds = try timed {
                try log.readHeads { head in
                    events += 1
                    sum &+= head.position.rawValue &+ UInt64(head.typeBytes.count)
                }
            }
            guard sum > 0 else { throw BenchFailure("the log of \(library) is empty") }
            rates.append(Double(events) / seconds)
        }
        return rates.median
    }

    static func megabytes(_ bytes: UInt64) -> String { (Double(bytes) / 1_000_000).grouped(decimals: 1) + " MB" }

    static func verdict(_ met: Bool) -> String { met ? " -- met" : " -- MISSED" }
}
