import Foundation

/// How ``LogWriter/compact(_:)`` rewrites sealed segments.
public struct CompactionSettings: Sendable {
    /// Events are packed into frames of about this much JSON (bytes). Larger frames compress better;
    /// reading one event through the stream index decodes its whole frame.
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
    ///
    /// Atomic per segment: a new file is written beside the old, fsynced, and renamed over it, then the
    /// folder is fsynced. Positions and content do not change, and `lz4 -dc` still reads the result.
    /// The stream index (whose frame offsets move) is removed first and rebuilt at the end, so a crash
    /// in between leaves at worst an index to rebuild.
    func compact(_ settings: CompactionSettings) throws(EventLogError) -> CompactionReport {
        var report = CompactionReport(segmentsCompacted: 0, bytesBefore: 0, bytesAfter: 0, jsonBytes: 0)
        let sealed = segments.dropLast().filter { settings.includeCompacted || $0.header.generation == 0 }
        guard !sealed.isEmpty else { return report }
        try index.removeFiles()
        for segment in sealed {
            let json = try rewrite(segment, settings: settings)
            let after = try File.openForReading(segment.path).size()
            report.segmentsCompacted += 1
            report.bytesBefore += segment.size
            report.bytesAfter += after
            report.jsonBytes += json
        }
        readFiles = [:]
        _ = try synchronize(repair: true, trustingIndex: false)
        try index.merge(generations: generations)
        return report
    }

    /// Writes `segment` again with large frames; returns the bytes of JSON it holds.
    private func rewrite(_ segment: Segment, settings: CompactionSettings) throws(EventLogError) -> UInt64 {
        let folder = try layout.logFolder()
        let (temporary, output) = try folder.createTemporary(prefix: segment.name + ".", suffix: ".compacting")
        var header = segment.header
        header.generation += 1
        try output.write(header.bytes, at: 0)
        var written = UInt64(SegmentHeader.size)
        var chunk: [UInt8] = []
        chunk.reserveCapacity(settings.frameContentSize + (1 << 16))
        var frame: [UInt8] = []
        var json: UInt64 = 0
        var expected = segment.header.firstPosition
        let frameSettings = LZ4Frame.Settings(level: settings.level, linkedBlocks: true)

        func flush() throws(EventLogError) {
            guard !chunk.isEmpty else { return }
            frame.removeAll(keepingCapacity: true)
            chunk.withUnsafeBytes { LZ4Frame.compress($0, settings: frameSettings, into: &frame) }
            try output.write(frame, at: written)
            written += UInt64(frame.count)
            chunk.removeAll(keepingCapacity: true)
        }

        var cursor = FrameCursor(
            file: try file(forSegment: segment.number), from: UInt64(SegmentHeader.size), end: segment.size,
            buffer: maintenance.fileBuffer)
        while true {
            let step = try cursor.next()
            guard case .frame(let offset, let bytes) = step else {
                if case .end = step { break }
                try? folder.remove(temporary)
                throw .damagedLog(segment: segment.name, offset: cursor.offset, reason: "\(step)")
            }
            let length: Int
            do {
                length = try maintenance.decode(bytes)
            } catch {
                try? folder.remove(temporary)
                throw .damagedLog(segment: segment.name, offset: offset, reason: error.reason)
            }
            let content = maintenance.content.bytes(0..<length)
            for (lineStart, line) in Lines(content) {
                guard let envelope = try? EnvelopeParser.parse(line), envelope.position == expected else {
                    try? folder.remove(temporary)
                    throw .damagedLog(segment: segment.name, offset: offset, reason: "expected position \(expected)")
                }
                expected = expected.next
                // Frames end on line boundaries, so that every frame is whole JSON lines.
                let withNewline = UnsafeRawBufferPointer(rebasing: content[lineStart...(lineStart + line.count)])
                if chunk.count + withNewline.count > settings.frameContentSize { try flush() }
                chunk.append(contentsOf: withNewline)
            }
            json += UInt64(length)
        }
        try flush()
        try output.sync()
        try folder.rename(temporary, to: segment.name)
        try folder.sync()
        maintenance.decodedFrame = nil
        readFiles[segment.number] = nil
        return json
    }
}
