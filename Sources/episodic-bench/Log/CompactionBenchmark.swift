import EventLog

/// Compaction of the bulk log's sealed segments with the default settings (1 MiB frames,
/// LZ4-HC level 9), and how much smaller than their JSON the segments are before and after, next to
/// what `lz4 -9` makes of the whole log's JSON as one frame.
enum CompactionBenchmark {
    static func run(library: String, json: Int, report: Report) throws {
        let log = try EventLog(at: library, options: BulkLog.options)
        var result: CompactionReport?
        let seconds = try timed {
            result = try log.write { writer in try writer.compact(CompactionSettings()) }
        }
        guard let result, result.segmentsCompacted > 0 else {
            throw BenchFailure("nothing to compact: the bulk log has no sealed segment; ask for more --events")
        }
        let before = Double(result.jsonBytes) / Double(result.bytesBefore)
        let after = result.ratio
        let throughput = Double(result.jsonBytes) / 1_048_576 / seconds
        report.line("compaction ratio", "\(after.grouped(decimals: 2))x JSON to disk (target >= 3x)")
        if let oneFrame = try Lz4Peer.oneFrameBytes(library: library, level: 9) {
            let peer = Double(json) / Double(oneFrame)
            report.line("lz4 -9, one frame", "\(peer.grouped(decimals: 2))x: the whole log's JSON as one frame, linked blocks")
            report.value("lz4OneFrameRatio", peer)
        }
        report.line(
            "before compaction", "\(before.grouped(decimals: 2))x (\(BulkLog.eventsPerCommit)-event commit frames)")
        report.line(
            "compaction time",
            "\(seconds.grouped(decimals: 2)) s for \(result.segmentsCompacted) segments, "
                + "\(result.jsonBytes.mebibytes) of JSON to \(result.bytesAfter.mebibytes) "
                + "(\(throughput.grouped()) MiB/s of JSON)")
        report.value("compactionRatio", after)
        report.value("ratioBeforeCompaction", before)
        report.value("compactionSeconds", seconds)
        report.value("compactedSegments", result.segmentsCompacted)
        report.value("compactedJSONBytes", Int(result.jsonBytes))
        report.value("compactedBytesBefore", Int(result.bytesBefore))
        report.value("compactedBytesAfter", Int(result.bytesAfter))
    }
}
