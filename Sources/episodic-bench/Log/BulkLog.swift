import EventLog

/// The log that is scanned and compacted: `events` podcast events in 4 MiB segments, written by a writer
/// that does not compact them, as a library written before automatic compaction, so that
/// ``LogWriter/compact(_:)`` finds sealed segments to rewrite.
///
/// Real commands commit 1 to 5 events. This log is written in commits of 500 so that a million events
/// take 2,000 fsyncs instead of some 300,000: the mix of streams and types is the same, but each frame
/// holds 500 events, so frames compress better than a real log's do before compaction.
enum BulkLog {
    static let eventsPerCommit = 500
    static let options = EventLog.Options(segmentSizeLimit: 4 << 20, automaticCompaction: nil)
    /// About three segments' worth: fewer would leave compaction nothing sealed to rewrite.
    static let minimumEvents = 100_000

    /// Writes the log; returns the studio that made it, whose tallies a scan must find again.
    static func write(events: Int, at library: String, report: Report) throws -> GeneratedCommits {
        let log = try EventLog.create(at: library, options: options)
        var studio = try GeneratedCommits(seed: 0xB0_1C, blobs: log.blobs)
        var appending = 0.0
        let total = try timed {
            try log.write { writer in
                var remaining = events
                while remaining > 0 {
                    let commit = studio.commit(of: min(eventsPerCommit, remaining))
                    appending += try timed { try writer.append(commit) }
                    remaining -= commit.events.count
                }
            }
        }
        let rate = Double(events) / appending
        report.line(
            "bulk log",
            "\(events.grouped()) events in commits of \(eventsPerCommit): \(total.grouped(decimals: 1)) s, "
                + "\(rate.grouped()) events/s appended (generation excluded)")
        report.value("bulkEvents", events)
        report.value("bulkSeconds", total)
        report.value("bulkAppendEventsPerSecond", rate)
        return studio
    }

    /// The bytes of JSON the log holds: its lines, newlines included, as `lz4 -dc` prints them.
    static func jsonBytes(library: String) throws -> Int {
        var total = 0
        try EventLog(at: library, options: options).read { total += $0.line.count + 1 }
        return total
    }
}
