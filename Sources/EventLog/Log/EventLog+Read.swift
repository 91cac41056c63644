import Foundation

extension EventLog {
    /// Calls `body` with every event from `start` through `end` (default: the head), in order.
    ///
    /// Memory stays constant: frames are decoded into buffers reused from one event to the next, and the
    /// envelope handed to `body` is valid only during the call. Every frame's checksum is checked; damage
    /// throws ``EventLogError/damagedLog(segment:offset:reason:)`` and is never skipped.
    public func read(
        from start: LogPosition = LogPosition(1), through end: LogPosition? = nil,
        _ body: (EventEnvelope) throws -> Void
    ) throws {
        try read(from: start, through: end, where: nil, body)
    }

    /// Calls `body` with the events from `start` through `end` whose positions `wanted` accepts, in
    /// order. The others are read for their position only (their frames' checksums still hold them to
    /// what was written): a reader that wants a few events of a long stretch does not parse the rest.
    ///
    /// `checkingChecksums` false skips the frames' checksums, a tenth of a long read's time. It is
    /// only for a second pass over frames that this process has just read with them checked (a replay
    /// plans on a first read and decodes on a second), through logs whose segments were pinned
    /// (``pinSegments()``) before the first, so that both read the same files: damage is still caught,
    /// by the first.
    public func read(
        from start: LogPosition = LogPosition(1), through end: LogPosition? = nil, where wanted: ((LogPosition) -> Bool)?,
        checkingChecksums: Bool = true, _ body: (EventEnvelope) throws -> Void
    ) throws {
        try read(from: start, through: end, where: wanted, checkingChecksums: checkingChecksums, asAppended: false, body)
    }

    /// Like ``read(from:through:_:)``, with each line as it was appended: the `prev` that compaction
    /// left out of a commit is put back. For showing the log; it hashes every commit of a compacted
    /// frame it reads.
    public func readAsAppended(from start: LogPosition, through end: LogPosition?, _ body: (EventEnvelope) throws -> Void) throws {
        try read(from: start, through: end, where: nil, checkingChecksums: true, asAppended: true, body)
    }

    private func read(
        from start: LogPosition, through end: LogPosition?, where wanted: ((LogPosition) -> Bool)?,
        checkingChecksums: Bool, asAppended: Bool, _ body: (EventEnvelope) throws -> Void
    ) throws {
        try scan(from: start, through: end, checkingChecksums: checkingChecksums, asAppended: asAppended) { line throws(EnvelopeParser.Failure) in
            // With a filter, the position is read first, and the rest only for a wanted event.
            if let wanted, let position = EnvelopeParser.leadingPosition(line) {
                return (position, wanted(position) ? try EnvelopeParser.parse(line) : nil)
            }
            let envelope = try EnvelopeParser.parse(line)
            return (envelope.position, wanted?(envelope.position) ?? true ? envelope : nil)
        } deliver: { envelope in
            try body(envelope)
        }
    }

    /// Calls `body` with the head of every event from `start` through `end` (default: the head), in
    /// order: its position, stream and type, without the rest of its line. Checksums are checked as
    /// by ``read(from:through:_:)``.
    public func readHeads(from start: LogPosition = LogPosition(1), through end: LogPosition? = nil, _ body: (EventHead) throws -> Void) throws {
        try scan(from: start, through: end, checkingChecksums: true, asAppended: false) { line throws(EnvelopeParser.Failure) in
            let head = try EnvelopeParser.head(line)
            return (head.position, head)
        } deliver: { head in
            try body(head)
        }
    }

    /// Like ``readHeads(from:through:_:)``, feeding every line to `chain` as well: a replay reads
    /// stretches of the log on several cores, each through a stretch of the chain of its own, which it
    /// then joins in log order (``ChainCheck/join(_:)``). A commit that does not name the hash of the one
    /// before it within the stretch throws ``EventLogError/brokenChain(position:reason:)``.
    public func readHeads(
        from start: LogPosition, through end: LogPosition?, chain: inout ChainStretch, _ body: (EventHead) throws -> Void
    ) throws {
        try scan(from: start, through: end, checkingChecksums: true, asAppended: false) { line throws(EnvelopeParser.Failure) in
            let envelope = try EnvelopeParser.parse(line)
            return (envelope.position, envelope)
        } deliver: { envelope in
            try chain.add(envelope)
            try body(EventHead(envelope))
        }
    }

    /// Walks the lines from `start` through `end`, holding their positions to an unbroken sequence:
    /// `parse` reads a line's position and what to hand over (nil: nothing), `deliver` takes it.
    /// `asAppended` hands `parse` each line with the `prev` compaction left out put back.
    private func scan<Parsed>(
        from start: LogPosition, through end: LogPosition?, checkingChecksums: Bool, asAppended: Bool,
        parse: (UnsafeRawBufferPointer) throws(EnvelopeParser.Failure) -> (LogPosition, Parsed?),
        deliver: (Parsed) throws -> Void
    ) throws {
        let last = min(end ?? head, head)
        var first = max(start, LogPosition(1))
        var checkingChecksums = checkingChecksums
        var attempt = 0
        while first <= last {
            // The position after the last line handed over: where a second attempt takes up.
            var next = first
            var bodyFailed = false
            let parseTracking = { (line: UnsafeRawBufferPointer) throws(EnvelopeParser.Failure) -> (LogPosition, (LogPosition, Parsed)?) in
                let (position, parsed) = try parse(line)
                return (position, parsed.map { (position, $0) })
            }
            let deliverTracking = { (item: (LogPosition, Parsed)) throws in
                do {
                    try deliver(item.1)
                } catch {
                    bodyFailed = true
                    throw error
                }
                next = item.0.next
            }
            do {
                do {
                    try scan(
                        first, through: last, startingAt: startingFrame(for: first), checkingChecksums: checkingChecksums,
                        asAppended: asAppended, parse: parseTracking, deliver: deliverTracking)
                } catch let error as EventLogError where !bodyFailed && next == first && index.start(for: first.rawValue) != nil {
                    // The index is derived and may be wrong: what it pointed at did not lead to the position.
                    // Start again from the segment's first frame, which only the log itself decides.
                    _ = error
                    try scan(
                        first, through: last, startingAt: segmentStart(for: first), checkingChecksums: checkingChecksums,
                        asAppended: asAppended, parse: parseTracking, deliver: deliverTracking)
                }
                return
            } catch let error as EventLogError where !bodyFailed && attempt < Self.readsThroughCompaction && error.isDamage
                && segmentsReplacedSinceListing()
            {
                // A compaction renamed new files over segments since this instance listed them: list the
                // log again, and read on from the first line not handed over yet, with checksums checked
                // (a second pass over pinned files may skip them; these files are new).
                attempt += 1
                try refresh()
                first = next
                checkingChecksums = true
            }
        }
    }

    /// Whether a segment's name now names another file than when this instance last listed the log: a
    /// compaction replaced it, and what this instance knows of its frames may no longer hold. One
    /// listing of `log/`; asked only when a read meets what looks like damage.
    func segmentsReplacedSinceListing() -> Bool {
        guard let entries = try? FileSystem.entries(of: layout.logDirectory) else { return false }
        var now: [UInt32: UInt64] = [:]
        for entry in entries { if let number = Segment.number(inName: entry.name) { now[number] = entry.inode } }
        return now != listedInodes
    }

    private func scan<Parsed>(
        _ first: LogPosition, through last: LogPosition, startingAt start: (Int, UInt64), checkingChecksums: Bool, asAppended: Bool,
        parse: (UnsafeRawBufferPointer) throws(EnvelopeParser.Failure) -> (LogPosition, Parsed?),
        deliver: (Parsed) throws -> Void
    ) throws {
        var (at, offset) = start
        var expected: LogPosition?
        let reader = FrameReader(readAhead: FrameReader.scanReadAhead)
        while at < segments.count {
            let segment = segments[at]
            var cursor = FrameCursor(file: try file(forSegment: segment.number), from: offset, end: segment.size, buffer: reader.fileBuffer)
            while true {
                let step = try cursor.next()
                guard case .frame(let frameOffset, let bytes) = step else {
                    if case .end = step { break }
                    throw EventLogError.damagedLog(segment: segment.name, offset: cursor.offset, reason: "\(step)")
                }
                let length: Int
                do {
                    length = try reader.decode(bytes, checkingChecksum: checkingChecksums)
                } catch {
                    throw EventLogError.damagedLog(segment: segment.name, offset: frameOffset, reason: error.reason)
                }
                // Compaction leaves prevs out of compacted segments only.
                var appended = asAppended && segment.header.generation > 0 ? AppendedLines() : nil
                for (_, stored) in Lines(reader.content.bytes(0..<length)) {
                    let line = appended?.next(stored) ?? stored
                    let position: LogPosition, parsed: Parsed?
                    do {
                        (position, parsed) = try parse(line)
                    } catch {
                        throw EventLogError.damagedLog(segment: segment.name, offset: frameOffset, reason: "\(error)")
                    }
                    if let wanted = expected, position != wanted {
                        throw EventLogError.damagedLog(
                            segment: segment.name, offset: frameOffset,
                            reason: "found position \(position) where \(wanted) should be")
                    }
                    if expected == nil {
                        guard position <= first else {
                            throw EventLogError.damagedLog(
                                segment: segment.name, offset: frameOffset,
                                reason: "the scan for position \(first) began at position \(position)")
                        }
                        if position < first { continue }
                    }
                    expected = position.next
                    if let parsed { try deliver(parsed) }
                    if position == last { return }
                }
            }
            at += 1
            offset = UInt64(SegmentHeader.size)
        }
        throw EventLogError.damagedLog(
            segment: segments.last?.name ?? "(none)", offset: segments.last?.size ?? 0,
            reason: "the log ended before position \(last)")
    }

    /// Every event from `start` through `end`, copied out. For small ranges and tests; prefer
    /// ``read(from:through:_:)`` for long ones.
    public func events(from start: LogPosition = LogPosition(1), through end: LogPosition? = nil) throws -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        try read(from: start, through: end) { events.append(RecordedEvent($0)) }
        return events
    }

    /// Calls `body` with the events of one stream, in order, through the stream index: the cost follows
    /// the stream's length, not the log's.
    public func read(stream: StreamID, _ body: (EventEnvelope) throws -> Void) throws {
        try read(stream: stream, asAppended: false, body)
    }

    /// Like ``read(stream:_:)``, with each line as it was appended: the `prev` that compaction left out
    /// of a commit is put back. For showing the log; it hashes the frame up to each such line.
    public func readAsAppended(stream: StreamID, _ body: (EventEnvelope) throws -> Void) throws {
        try read(stream: stream, asAppended: true, body)
    }

    /// Calls `body` with the events of `stream` after `point`, in order, through the stream index: what a
    /// fold kept at `point` still needs (see ``StreamSnapshots``). Returns false, having called `body` for
    /// nothing, unless the log holds at `point.position` the stream's event number `point.version`, with
    /// `point.identity`: a fold made from another copy of the log, or from events since cut off, is of
    /// no use, and the caller reads the stream whole.
    public func read(stream: StreamID, after point: StreamPoint, _ body: (EventEnvelope) throws -> Void) throws -> Bool {
        try read(stream: stream, asAppended: false, from: point, body)
    }

    @discardableResult
    private func read(
        stream: StreamID, asAppended: Bool, from point: StreamPoint? = nil, _ body: (EventEnvelope) throws -> Void
    ) throws -> Bool {
        var delivered = point?.version ?? 0
        var bodyFailed = false
        let tracking = { (envelope: EventEnvelope) throws in
            do { try body(envelope) } catch {
                bodyFailed = true
                throw error
            }
        }
        var attempt = 0
        while true {
            do {
                return try readRebuildingIndex(stream: stream, asAppended: asAppended, from: point, after: &delivered, tracking)
            } catch let error as EventLogError where !bodyFailed && attempt < Self.readsThroughCompaction && error.isDamage
                && segmentsReplacedSinceListing()
            {
                // A compaction replaced segments since this instance listed the log: list it again and read
                // on from the first event not handed over yet.
                attempt += 1
                try refresh()
            }
        }
    }

    /// How many times a read lists the log again and reads on, when compactions keep replacing the
    /// segments it reads: each one that meets it costs the reader a listing of `log/`.
    static let readsThroughCompaction = 8

    /// ``readIndexed(stream:asAppended:from:after:_:)``, once more after rebuilding the index when the
    /// index disagrees with the log.
    private func readRebuildingIndex(
        stream: StreamID, asAppended: Bool, from point: StreamPoint?, after delivered: inout Int, _ body: (EventEnvelope) throws -> Void
    ) throws -> Bool {
        do {
            return try readIndexed(stream: stream, asAppended: asAppended, from: point, after: &delivered, body)
        } catch is IndexMismatch {
            // The index disagrees with the log (written before a crash or a compaction, or damaged):
            // rebuild it from the log and try once more. `body`'s own errors are not caught here.
            try rebuildIndex()
            do {
                return try readIndexed(stream: stream, asAppended: asAppended, from: point, after: &delivered, body)
            } catch let mismatch as IndexMismatch {
                throw mismatch.damage
            }
        }
    }

    /// The stream index pointed at something the log does not hold: derived state to rebuild, or, when it
    /// persists after a rebuild from the log, damage to the log itself.
    private struct IndexMismatch: Error {
        let damage: EventLogError
    }

    /// The events of one stream, copied out.
    public func events(in stream: StreamID) throws -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        try read(stream: stream) { events.append(RecordedEvent($0)) }
        return events
    }

    /// Reads the stream through the index, from the start or from after `point` (false when the log does
    /// not hold that event there), skipping the events up to `delivered` (handed to `body` by an earlier
    /// attempt) and counting those it hands over.
    private func readIndexed(
        stream: StreamID, asAppended: Bool, from point: StreamPoint?, after delivered: inout Int,
        _ body: (EventEnvelope) throws -> Void
    ) throws -> Bool {
        guard var entries = index.entries(for: streamHash(stream))?[...] else {
            throw IndexMismatch(damage: .damagedLog(segment: "index/streams.sorted", offset: 0, reason: "an index entry fails its check"))
        }
        var version = 0
        let reader = FrameReader(readAhead: FrameReader.lookupReadAhead)
        if let point {
            // The event the fold stands after, as appended: its identity is that of the line appended.
            guard let at = entries.firstIndex(where: { $0.position == point.position.rawValue }),
                try withEvent(at: entries[at], reader: reader, asAppended: true, {
                    $0.position == point.position && $0.isIn(stream) && $0.streamVersion == point.version && $0.identity == point.identity
                }) == true
            else { return false }
            version = point.version
            entries = entries[(at + 1)...]
        }
        // An error of `body` is the caller's: carried out of the lookup and thrown as it is.
        var failure: (any Error)?
        for entry in entries {
            let matched: Bool? = try withEvent(at: entry, reader: reader, asAppended: asAppended) { envelope in
                guard envelope.position.rawValue == entry.position else { return nil }
                guard envelope.isIn(stream) else { return false }  // another stream with the same hash
                guard envelope.streamVersion == version + 1 else { return nil }
                version += 1
                if version > delivered {
                    do {
                        try body(envelope)
                    } catch {
                        failure = error
                        return true
                    }
                    delivered = version
                }
                return true
            } ?? nil
            if let failure { throw failure }
            if matched == nil {
                throw IndexMismatch(damage: .damagedLog(
                    segment: Segment.name(of: entry.segment), offset: UInt64(entry.frameOffset),
                    reason: "the event at position \(entry.position) of stream \(stream) cannot be read there"))
            }
        }
        return true
    }

    /// Writes the index's new entries (writer only). A failure never fails a commit, since the index is
    /// derived data; an entry of any index file found damaged while merging makes the writer rebuild it.
    func persistIndex() {
        do {
            try index.persist(generations: generations, openSegmentStart: segments.last?.header.firstPosition.rawValue)
        } catch .damagedLog(let file, _, _) where StreamIndex.isIndexFile(file) {
            try? rebuildIndex()
        } catch {}
    }

    /// Throws away the stream index and builds it again from the whole log.
    func rebuildIndex() throws(EventLogError) {
        _ = try synchronize(repair: isWriting, trustingIndex: false)
        if isWriting { try? index.merge(generations: generations) }
    }

    /// The version `stream` has now: the number of events in it.
    func currentVersion(of stream: StreamID) throws(EventLogError) -> Int {
        if let known = knownVersions[stream] { return known }
        let version: Int
        if let found = try lastVersionThroughIndex(of: stream) {
            version = found
        } else {
            // The index disagrees with the log: rebuilt from the log, it agrees, or the log is damaged.
            try rebuildIndex()
            guard let found = try lastVersionThroughIndex(of: stream) else {
                throw .damagedLog(segment: segments.last?.name ?? "(none)", offset: 0, reason: "the last event of stream \(stream) cannot be read")
            }
            version = found
        }
        knownVersions[stream] = version
        return version
    }

    /// The version of the stream's newest event, read where the index says it is; nil when the index does
    /// not lead to it.
    private func lastVersionThroughIndex(of stream: StreamID) throws(EventLogError) -> Int? {
        guard let entries = index.entries(for: streamHash(stream)) else { return nil }
        let reader = FrameReader(readAhead: FrameReader.lookupReadAhead)
        enum Found { case version(Int), otherStream, elsewhere }
        for entry in entries.reversed() {
            let found = try withEvent(at: entry, reader: reader) { envelope -> Found in
                guard envelope.position.rawValue == entry.position else { return .elsewhere }
                return envelope.isIn(stream) ? .version(envelope.streamVersion) : .otherStream
            }
            switch found ?? .elsewhere {
            case .version(let version): return version
            case .otherStream: continue  // a stream with the same hash
            case .elsewhere: return nil
            }
        }
        return 0
    }

    /// Calls `body` with the event an index entry points at; nil when nothing readable is there.
    /// `asAppended` puts back the `prev` that compaction left out of its line, if it did.
    func withEvent<Result>(
        at entry: IndexEntry, reader: FrameReader, asAppended: Bool = false, _ body: (EventEnvelope) throws(EventLogError) -> Result
    ) throws(EventLogError) -> Result? {
        guard let segment = segments.first(where: { $0.number == entry.segment }),
            UInt64(entry.frameOffset) < segment.size
        else { return nil }
        guard let length = try decodeFrame(segment: segment, offset: entry.frameOffset, reader: reader) else { return nil }
        let start = Int(entry.lineOffset)
        guard start < length, start == 0 || reader.content.bytes(0..<length)[start - 1] == 0x0A,
            var lines = Optional(Lines(reader.content.bytes(start..<length))), let (_, line) = lines.next(),
            let envelope = try? EnvelopeParser.parse(line)
        else { return nil }
        guard asAppended, envelope.previousRange?.isEmpty == true else { return try body(envelope) }
        // The frame from its first line tells the prev the line leaves out.
        var appended = AppendedLines()
        for (lineStart, stored) in Lines(reader.content.bytes(0..<length)) {
            let restored = appended.next(stored)
            guard lineStart == start else { continue }
            guard let envelope = try? EnvelopeParser.parse(restored) else { return nil }
            return try body(envelope)
        }
        return nil
    }

    /// Decodes the frame at `offset` into the reader (unless it is already there); nil if it is not a valid frame.
    private func decodeFrame(segment: Segment, offset: UInt32, reader: FrameReader) throws(EventLogError) -> Int? {
        if let decoded = reader.decodedFrame, decoded.segment == segment.number, decoded.offset == offset {
            return decoded.length
        }
        let sealed = segment.number != segments.last?.number
        let key = DecodedFrames.Key(segment: segment.number, generation: segment.header.generation, offset: offset)
        if sealed, let length = decodedFrames.copy(key, into: reader.content) {
            reader.decodedFrame = (segment.number, offset, length)
            return length
        }
        var cursor = FrameCursor(
            file: try file(forSegment: segment.number), from: UInt64(offset), end: segment.size, buffer: reader.fileBuffer,
            readAhead: 16 << 10)
        guard case .frame(_, let bytes) = try cursor.next(),
            let length = try? reader.decode(bytes)
        else { return nil }
        reader.decodedFrame = (segment.number, offset, length)
        if sealed { decodedFrames.keep(key, reader.content.bytes(0..<length)) }
        return length
    }

    /// The segment (as an array index) and frame where a scan for `position` starts.
    private func startingFrame(for position: LogPosition) -> (Int, UInt64) {
        if let start = index.start(for: position.rawValue),
            let at = segments.firstIndex(where: { $0.number == start.segment }),
            UInt64(start.frameOffset) >= UInt64(SegmentHeader.size), UInt64(start.frameOffset) < segments[at].size
        {
            return (at, UInt64(start.frameOffset))
        }
        return segmentStart(for: position)
    }

    /// The first frame of the segment that holds `position`, by the segments' own headers.
    private func segmentStart(for position: LogPosition) -> (Int, UInt64) {
        let at = (segments.lastIndex { $0.header.firstPosition <= position }) ?? 0
        return (at, UInt64(SegmentHeader.size))
    }
}
