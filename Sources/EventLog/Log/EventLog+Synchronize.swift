import Foundation

extension EventLog {
    /// Finds the log's head and brings the stream index up to it.
    ///
    /// Starts from the index's newest entry (checking that its frame is still there) rather than from the
    /// beginning, so opening costs one frame plus whatever was appended since the index was written.
    /// A damaged frame at the very end of the last segment, with nothing valid after it, is a torn write:
    /// with `repair` (under the writer lock) it is cut off and reported; without, it is just not read.
    /// Damage anywhere else is an error naming the segment and byte offset.
    func synchronize(repair: Bool, trustingIndex: Bool = true) throws(EventLogError) -> RecoveryReport? {
        let headBefore = head
        defer { if head != headBefore || !trustingIndex { knownVersions = [:] } }
        readFiles = [:]
        maintenance.decodedFrame = nil
        let listing = try listSegments(repair: repair)
        segments = listing.segments
        if trustingIndex { index.load(generations: generations) } else { index.reset() }

        var start = (segment: 0, offset: UInt64(SegmentHeader.size))
        head = .none
        if let last = index.lastEntry, let at = segments.firstIndex(where: { $0.number == last.segment }),
            (try? entryMatchesLog(last)) == true
        {
            start = (at, UInt64(last.frameOffset))
            head = LogPosition(last.position)
        } else {
            index.reset()
        }
        var recovery = try scan(from: start, repair: repair)
        if let removed = listing.removedTornSegment, recovery == nil {
            recovery = RecoveryReport(
                segment: removed.name, offset: 0, bytesCut: removed.size,
                reason: "its header was torn while the segment was being created",
                lastAcknowledged: head, unacknowledged: [])
        }
        return recovery
    }

    /// Whether the event the index entry points at is really there.
    func entryMatchesLog(_ entry: IndexEntry) throws(EventLogError) -> Bool {
        try withEvent(at: entry, reader: maintenance) { $0.position.rawValue == entry.position } ?? false
    }

    /// Reads frames from `start` to the end of the log, indexing every event not yet indexed and checking
    /// that positions follow on without gaps.
    private func scan(from start: (segment: Int, offset: UInt64), repair: Bool) throws(EventLogError) -> RecoveryReport? {
        var offset = start.offset
        let resumingFromIndex = head != .none
        for at in start.segment..<segments.count {
            let segment = segments[at]
            let entersSegment = at > start.segment || !resumingFromIndex
            if entersSegment && segment.header.firstPosition != head.next {
                throw .damagedLog(
                    segment: segment.name, offset: 24,
                    reason: "it starts at position \(segment.header.firstPosition), expected \(head.next)")
            }
            var cursor = FrameCursor(file: try file(forSegment: segment.number), from: offset, end: segment.size, buffer: maintenance.fileBuffer)
            while true {
                let bad: (offset: UInt64, reason: String)
                switch try cursor.next() {
                case .end:
                    bad = (segment.size, "")
                case .frame(let frameOffset, let bytes):
                    let length: Int
                    do {
                        length = try maintenance.decode(bytes)
                    } catch {
                        bad = (frameOffset, "its checksum or content does not match (\(error.reason))")
                        return try handleBadFrame(at: at, bad, repair: repair)
                    }
                    try indexLines(length: length, segment: segment, frameOffset: frameOffset)
                    continue
                case .incomplete(let frameOffset):
                    bad = (frameOffset, "the frame is incomplete")
                case .invalid(let frameOffset, let reason):
                    bad = (frameOffset, reason)
                }
                if bad.reason.isEmpty { break }
                return try handleBadFrame(at: at, bad, repair: repair)
            }
            offset = UInt64(SegmentHeader.size)
        }
        return nil
    }

    /// Indexes the lines of the frame just decoded into the maintenance reader.
    private func indexLines(length: Int, segment: Segment, frameOffset: UInt64) throws(EventLogError) {
        let lines = Lines(maintenance.content.bytes(0..<length))
        if lines.hasUnterminatedTail {
            throw .damagedLog(segment: segment.name, offset: frameOffset, reason: "its last line has no newline")
        }
        for (lineStart, line) in lines {
            let envelope: EventEnvelope
            do {
                envelope = try EnvelopeParser.parse(line)
            } catch {
                throw .damagedLog(segment: segment.name, offset: frameOffset, reason: "an event cannot be read: \(error)")
            }
            let position = envelope.position
            if position > head {
                guard position == head.next else {
                    throw .damagedLog(
                        segment: segment.name, offset: frameOffset,
                        reason: "found position \(position) where \(head.next) should be")
                }
                index.add(IndexEntry(
                    streamHash: streamHash(envelope.streamBytes), position: position.rawValue,
                    segment: segment.number, frameOffset: UInt32(frameOffset), lineOffset: UInt32(lineStart)))
                head = position
            } else if let last = index.lastEntry, last.segment != segment.number || UInt64(last.frameOffset) != frameOffset {
                // Only the frame of the index's newest entry is read again.
                throw .damagedLog(
                    segment: segment.name, offset: frameOffset,
                    reason: "found position \(position) after position \(head)")
            }
        }
    }

    /// A frame that cannot be read: the torn tail of a crash, or damage.
    private func handleBadFrame(
        at segmentIndex: Int, _ bad: (offset: UInt64, reason: String), repair: Bool
    ) throws(EventLogError) -> RecoveryReport? {
        let segment = segments[segmentIndex]
        let isLast = segmentIndex == segments.count - 1
        let file = try file(forSegment: segment.number)
        let rest = try file.read(count: Int(segment.size - bad.offset), at: bad.offset)
        guard isLast, !containsValidFrame(rest, after: 1) else {
            throw .damagedLog(segment: segment.name, offset: bad.offset, reason: bad.reason)
        }
        // A torn tail: never acknowledged, so it is not part of the log.
        segments[segmentIndex].size = bad.offset
        guard repair else { return nil }
        let writable = try layout.logFolder().open(segment.name, flags: O_WRONLY)
        try writable.truncate(to: bad.offset)
        try writable.sync()
        readFiles[segment.number] = nil
        return RecoveryReport(
            segment: segment.name, offset: bad.offset, bytesCut: UInt64(rest.count), reason: bad.reason,
            lastAcknowledged: head, unacknowledged: readablePositions(inTorn: rest))
    }

    /// Whether a whole, valid frame starts anywhere in `bytes` at or after `start`.
    private func containsValidFrame(_ bytes: [UInt8], after start: Int) -> Bool {
        bytes.withUnsafeBytes { raw in
            var at = start
            while at + 4 <= raw.count {
                if raw.littleEndian(at: at, as: UInt32.self) == LZ4Frame.magic,
                    case .complete(let length) = LZ4Frame.measure(UnsafeRawBufferPointer(rebasing: raw[at...])),
                    (try? LZ4Decoder().decode(UnsafeRawBufferPointer(rebasing: raw[at..<(at + length)]))) != nil
                {
                    return true
                }
                at += 1
            }
            return false
        }
    }

    private func readablePositions(inTorn bytes: [UInt8]) -> [LogPosition] {
        let content = bytes.withUnsafeBytes { maintenance.decoder.decodePrefix($0) }
        var positions: [LogPosition] = []
        content.withUnsafeBytes { raw in
            for (_, line) in Lines(raw) {
                if let envelope = try? EnvelopeParser.parse(line) { positions.append(envelope.position) }
            }
        }
        return positions
    }

    /// The segment files, numbered 1... without gaps. A last segment whose header is torn (a crash while
    /// it was being created, before any commit in it was acknowledged) is removed when repairing.
    private func listSegments(repair: Bool) throws(EventLogError)
        -> (segments: [Segment], removedTornSegment: (name: String, size: UInt64)?)
    {
        let names = try FileSystem.contents(of: layout.logDirectory)
        let numbers = names.compactMap(Segment.number(inName:)).sorted()
        var found: [Segment] = []
        var removed: (name: String, size: UInt64)?
        for (i, number) in numbers.enumerated() {
            guard number == UInt32(i + 1) else { throw .missingSegment(name: Segment.name(of: UInt32(i + 1))) }
            let path = layout.segmentPath(number)
            let file = try File.openForReading(path)
            let size = try file.size()
            let header: SegmentHeader
            let headerBytes = try file.read(count: SegmentHeader.size, at: 0)
            do {
                header = try SegmentHeader.parse(headerBytes)
            } catch .newerFormat(let version) {
                throw .newerFormat(file: path, found: version, supported: SegmentHeader.formatVersion)
            } catch {
                // Only a last segment that holds no commit at all can be the remains of a crash while it
                // was being created; anything else behind a bad header is damage, and is kept.
                let whole = try file.read(count: Int(size), at: 0)
                guard i == numbers.count - 1, !containsValidFrame(whole, after: 0) else {
                    throw .damagedLog(segment: Segment.name(of: number), offset: 0, reason: "its header is not a segment header")
                }
                if repair {
                    let folder = try layout.logFolder()
                    try folder.remove(Segment.name(of: number))
                    try folder.sync()
                    removed = (Segment.name(of: number), size)
                }
                break
            }
            guard header.number == number else {
                throw .damagedLog(segment: Segment.name(of: number), offset: 20, reason: "its header names segment \(header.number)")
            }
            found.append(Segment(header: header, path: path, size: size))
        }
        // Leftovers of an interrupted compaction go only once every segment is known to be readable.
        if repair {
            for name in names where name.hasSuffix(".compacting") {
                try layout.logFolder().remove(name)
            }
        }
        return (found, removed)
    }
}
