import EventLog

extension Library {
    /// Recompresses the log's sealed segments into large LZ4-HC frames (see `CompactionSettings`):
    /// positions, content and the hash chain stay as they are, and `lz4 -dc` still reads every segment.
    ///
    /// Runs as the library's writer, as a command does: it waits for the lock, and sets aside a torn tail
    /// first. The segment being written is never rewritten, so a library that has only that one has
    /// nothing to compact (``logSegments`` says so). On a shared library this is this machine's copy of
    /// the log, its own files: the server is not asked anything, and the copy hashes as before.
    public func compactLog(_ settings: CompactionSettings = CompactionSettings()) throws -> CompactionReport {
        try writeLocalLog { writer in try writer.compact(settings) }
    }

    /// The log's segments, in order, as this instance last read them.
    public var logSegments: [SegmentSummary] { log.segmentSummaries }
}
