import Foundation

/// How ``LogWriter/compact(_:)`` rewrites sealed segments.
public struct CompactionSettings: Sendable, Equatable {
    /// Events are packed into frames of about this much JSON (bytes). Larger frames compress better;
    /// reading one event through the stream index decodes its whole frame. On the benchmark's
    /// million-event library, at level 9, 1 MiB frames are 7.6 times smaller than the JSON and 64 KiB
    /// frames 5.5 times, but streams of 130 events were read for the first time 8.6 times slower from
    /// the larger.
    public var frameContentSize: Int
    /// 0 for LZ4's fast mode; 3 to 12 for LZ4-HC (slower to write, same speed to read, smaller).
    public var level: Int32
    /// Rewrite segments that were compacted before too (for example with a higher level).
    public var includeCompacted: Bool

    public init(frameContentSize: Int = 1 << 20, level: Int32 = 9, includeCompacted: Bool = false) {
        self.frameContentSize = max(frameContentSize, 1 << 12)
        self.level = level
        self.includeCompacted = includeCompacted
    }
}

/// What a compaction did.
public struct CompactionReport: Sendable, Equatable {
    public var segmentsCompacted: Int
    /// Sealed segments' sizes on disk before and after, in bytes.
    public var bytesBefore: UInt64
    public var bytesAfter: UInt64
    /// The JSON the rewritten segments hold, in bytes.
    public var jsonBytes: UInt64

    /// How many times smaller than their JSON the rewritten segments are.
    public var ratio: Double { bytesAfter == 0 ? 0 : Double(jsonBytes) / Double(bytesAfter) }
}

extension EventLog {
    /// Rewrites each sealed segment (every segment but the last) into large frames.
    func compact(_ settings: CompactionSettings) throws(EventLogError) -> CompactionReport {
        try compact(segments.dropLast().filter { settings.includeCompacted || $0.header.generation == 0 }, settings)
    }

    /// Rewrites `chosen`, sealed segments, into large frames, one after the other.
    ///
    /// Atomic per segment: a new file is written beside the old, fsynced, and renamed over it, then the
    /// folder is fsynced. Positions, events and every commit's hash stay as they were, and `lz4 -dc`
    /// still reads the result; only the `prev` of a frame's commits after its first is left out (`""`):
    /// it is the hash of the commit before, which a reader walking the frame has just computed.
    /// The stream index is then pointed at the frames' new places; a crash before that leaves entries
    /// that lead nowhere, which readers notice and rebuild the index for.
    func compact(_ chosen: [Segment], _ settings: CompactionSettings) throws(EventLogError) -> CompactionReport {
        var report = CompactionReport(segmentsCompacted: 0, bytesBefore: 0, bytesAfter: 0, jsonBytes: 0)
        // Rewritten segments leave prevs out, which a build older than format 3 would take for damage.
        if !chosen.isEmpty { try upgradeFormatIfNeeded() }
        for segment in chosen {
            guard let at = segments.firstIndex(of: segment), at < segments.count - 1 else { continue }
            let rewritten = try rewrite(segment, settings: settings)
            segments[at] = rewritten.segment
            report.segmentsCompacted += 1
            report.bytesBefore += segment.size
            report.bytesAfter += rewritten.segment.size
            report.jsonBytes += rewritten.json
            do {
                try index.relocate(Relocation(entries: rewritten.entries), generations: generations)
            } catch {
                // The index is derived: built again from the log, which is whole.
                try rebuildIndex()
            }
        }
        return report
    }

    /// What ``rewrite(_:settings:)`` made: the segment as it now is, the JSON it holds (bytes), and the
    /// stream index entries of its events at their new places, in position order.
    private struct Rewritten {
        var segment: Segment
        var json: UInt64
        var entries: [IndexEntry]
    }

    /// How the file a compaction writes before it renames it over the segment ends; one left in `log/`
    /// is an interrupted compaction's.
    static let compactingSuffix = ".compacting"

    /// Writes `segment` again with large frames.
    private func rewrite(_ segment: Segment, settings: CompactionSettings) throws(EventLogError) -> Rewritten {
        let folder = try layout.logFolder()
        let (temporary, output) = try folder.createTemporary(prefix: segment.name + ".", suffix: Self.compactingSuffix)
        do {
            let rewritten = try rewrite(segment, into: output, settings: settings)
            try output.sync()
            try folder.rename(temporary, to: segment.name)
            try folder.sync()
            maintenance.decodedFrame = nil
            readFiles[segment.number] = nil
            return rewritten
        } catch {
            try? folder.remove(temporary)
            throw error
        }
    }

    private func rewrite(_ segment: Segment, into output: File, settings: CompactionSettings) throws(EventLogError) -> Rewritten {
        var header = segment.header
        header.generation += 1
        header.formatVersion = SegmentHeader.formatVersion
        try output.write(header.bytes, at: 0)
        var written = UInt64(SegmentHeader.size)
        var chunk: [UInt8] = []
        chunk.reserveCapacity(settings.frameContentSize + (1 << 16))
        var frame: [UInt8] = []
        var json: UInt64 = 0
        var entries: [IndexEntry] = []
        /// The entries of the lines in `chunk`, whose frame offset is known once the frame is written.
        var framed = 0
        var expected = segment.header.firstPosition
        let frameSettings = LZ4Frame.Settings(level: settings.level, linkedBlocks: true)
        // A segment starts with a commit; the walk knows each commit's prev, stored or left out before.
        var commits = CommitWalker()
        // Nothing is rewritten around a broken link: compaction would move where the break shows.
        var chain = ChainCheck()
        /// Whether the commit before begins in `chunk` and carries a prev: only then may the next leave its
        /// prev out, since that prev pins the frame to the commits before it.
        var chainedInChunk = false

        func flush() throws(EventLogError) {
            guard !chunk.isEmpty else { return }
            frame.removeAll(keepingCapacity: true)
            chunk.withUnsafeBytes { LZ4Frame.compress($0, settings: frameSettings, into: &frame) }
            try output.write(frame, at: written)
            for i in framed..<entries.count { entries[i].frameOffset = UInt32(written) }
            framed = entries.count
            written += UInt64(frame.count)
            chunk.removeAll(keepingCapacity: true)
            chainedInChunk = false
        }

        /// Indexes the line about to be appended to `chunk`.
        func record(_ envelope: EventEnvelope) {
            entries.append(IndexEntry(
                streamHash: streamHash(envelope.streamBytes), position: envelope.position.rawValue,
                segment: segment.number, frameOffset: 0, lineOffset: UInt32(chunk.count)))
        }

        var cursor = FrameCursor(
            file: try file(forSegment: segment.number), from: UInt64(SegmentHeader.size), end: segment.size,
            buffer: maintenance.fileBuffer)
        while true {
            let step = try cursor.next()
            guard case .frame(let offset, let bytes) = step else {
                if case .end = step { break }
                throw .damagedLog(segment: segment.name, offset: cursor.offset, reason: "\(step)")
            }
            let length: Int
            do {
                length = try maintenance.decode(bytes)
            } catch {
                throw .damagedLog(segment: segment.name, offset: offset, reason: error.reason)
            }
            let content = maintenance.content.bytes(0..<length)
            let lines = Lines(content)
            if lines.hasUnterminatedTail {
                throw .damagedLog(segment: segment.name, offset: offset, reason: "its last line has no newline")
            }
            for (lineStart, line) in lines {
                guard let envelope = try? EnvelopeParser.parse(line), envelope.position == expected else {
                    throw .damagedLog(segment: segment.name, offset: offset, reason: "expected position \(expected)")
                }
                expected = expected.next
                try chain.add(envelope)
                let started = commits.started
                _ = commits.add(envelope)
                let startsCommit = commits.started > started
                // Frames end on line boundaries, so that every frame is whole JSON lines.
                let withNewline = UnsafeRawBufferPointer(rebasing: content[lineStart...(lineStart + line.count)])
                guard startsCommit, let prev = envelope.previousRange, let commit = commits.current else {
                    if startsCommit { chainedInChunk = false }
                    if chunk.count + withNewline.count > settings.frameContentSize { try flush() }
                    record(envelope)
                    chunk.append(contentsOf: withNewline)
                    continue
                }
                guard let previous = commit.previous else {
                    throw .damagedLog(
                        segment: segment.name, offset: offset,
                        reason: "the commit at position \(commit.first) leaves out a prev that nothing before it in the segment tells")
                }
                if prev.isEmpty { json += UInt64(CommitHash.hexCount) }
                let before = UnsafeRawBufferPointer(rebasing: withNewline[..<prev.lowerBound])
                let after = UnsafeRawBufferPointer(rebasing: withNewline[prev.upperBound...])
                let bare = before.count + after.count
                let leavesOut = chainedInChunk && chunk.count + bare <= settings.frameContentSize
                if !leavesOut, chunk.count + bare + CommitHash.hexCount > settings.frameContentSize { try flush() }
                record(envelope)
                chunk.append(contentsOf: before)
                if !leavesOut { chunk.append(contentsOf: previous.hexDigits) }
                chunk.append(contentsOf: after)
                chainedInChunk = true
            }
            json += UInt64(length)
        }
        try flush()
        return Rewritten(segment: Segment(header: header, path: segment.path, size: written), json: json, entries: entries)
    }
}
