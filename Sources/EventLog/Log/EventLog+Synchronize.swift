import Foundation

extension EventLog {
    /// Finds the log's head and brings the stream index up to it.
    ///
    /// Starts from the index's newest entry (checking that its frame is still there) rather than from the
    /// beginning, so opening costs one frame plus whatever was appended since the index was written.
    /// A bad frame at the very end of the last segment, with nothing valid after it, is a torn write
    /// unless something shows it was acknowledged: with `repair` (under the writer lock) it is set aside
    /// into `quarantine/` and reported; without, it is just not read (``unreadableTail`` says so).
    /// Damage anywhere else, or a bad tail that was acknowledged, is an error naming the segment and
    /// byte offset.
    func synchronize(repair: Bool, trustingIndex: Bool = true) throws(EventLogError) -> [RecoveryReport] {
        let headBefore = head
        defer {
            if head != headBefore || !trustingIndex {
                knownVersions = [:]
                appendedCommitEnds = [:]
            }
        }
        readFiles = [:]
        unreadableTail = nil
        maintenance.decodedFrame = nil
        let listing = try listSegments()
        segments = listing.segments
        readFiles = listing.pinned
        listedCatalog = listing.catalog
        if trustingIndex { index.load(generations: generations) } else { index.reset() }
        // Index entries are written only after their commit is on disk: what the index covers was acknowledged.
        let indexClaim = LogPosition(index.covered)

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
        var recovered: [RecoveryReport] = []
        if let report = try scan(from: start, repair: repair, indexClaim: indexClaim) { recovered.append(report) }
        if let torn = listing.tornLastSegment {
            if repair {
                let acknowledged = try checkUnacknowledged(
                    segment: torn.name, offset: 0, reason: "its header is not a segment header", indexClaim: indexClaim)
                let path = try quarantine(segmentFile: torn.name)
                recovered.append(RecoveryReport(
                    segment: torn.name, offset: 0, bytesCut: torn.size,
                    reason: "its header was torn while the segment was being created", quarantined: path,
                    lastAcknowledged: head, unacknowledged: [], discardedAcknowledged: acknowledged))
            } else if unreadableTail == nil {
                unreadableTail = UnreadableTail(
                    segment: torn.name, offset: 0, bytes: torn.size, reason: "its header is not a segment header")
            }
        }
        return recovered
    }

    /// Whether the event the index entry points at is really there.
    func entryMatchesLog(_ entry: IndexEntry) throws(EventLogError) -> Bool {
        try withEvent(at: entry, reader: maintenance) { $0.position.rawValue == entry.position } ?? false
    }

    /// Reads frames from `start` to the end of the log, indexing every event not yet indexed and checking
    /// that positions follow on without gaps.
    private func scan(
        from start: (segment: Int, offset: UInt64), repair: Bool, indexClaim: LogPosition
    ) throws(EventLogError) -> RecoveryReport? {
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
                        return try handleBadFrame(at: at, bad, repair: repair, indexClaim: indexClaim)
                    }
                    try indexLines(length: length, segment: segment, frameOffset: frameOffset)
                    continue
                case .incomplete(let frameOffset):
                    bad = (frameOffset, "the frame is incomplete")
                case .invalid(let frameOffset, let reason):
                    bad = (frameOffset, reason)
                }
                if bad.reason.isEmpty { break }
                return try handleBadFrame(at: at, bad, repair: repair, indexClaim: indexClaim)
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
        at segmentIndex: Int, _ bad: (offset: UInt64, reason: String), repair: Bool, indexClaim: LogPosition
    ) throws(EventLogError) -> RecoveryReport? {
        let segment = segments[segmentIndex]
        let isLast = segmentIndex == segments.count - 1
        let file = try file(forSegment: segment.number)
        let rest = try file.read(count: Int(segment.size - bad.offset), at: bad.offset)
        guard isLast, !containsValidFrame(rest, after: 1) else {
            throw .damagedLog(segment: segment.name, offset: bad.offset, reason: bad.reason)
        }
        // A reader stops before the bytes and changes nothing. It does not judge them: a writer may be
        // appending them right now, and the index it loaded may already name them.
        segments[segmentIndex].size = bad.offset
        guard repair else {
            unreadableTail = UnreadableTail(segment: segment.name, offset: bad.offset, bytes: UInt64(rest.count), reason: bad.reason)
            return nil
        }
        // The writer, alone under the lock: a torn tail is never acknowledged, so it is not part of the log.
        let acknowledged = try checkUnacknowledged(segment: segment.name, offset: bad.offset, reason: bad.reason, indexClaim: indexClaim)
        let kept = try quarantine(rest, from: segment.name, at: bad.offset)
        let writable = try layout.logFolder().open(segment.name, flags: O_WRONLY)
        try writable.truncate(to: bad.offset)
        try writable.sync()
        readFiles[segment.number] = nil
        return RecoveryReport(
            segment: segment.name, offset: bad.offset, bytesCut: UInt64(rest.count), reason: bad.reason, quarantined: kept,
            lastAcknowledged: head, unacknowledged: readablePositions(inTorn: rest), discardedAcknowledged: acknowledged)
    }

    /// Checks that nothing shows the bad bytes at `offset` were acknowledged: neither the stream index
    /// as found on disk, the head record, nor the writer's witness (a read model's checkpoint) has seen
    /// a position past the head. If something does, they are damage: this throws, unless the user asked to discard them
    /// (``EventLog/acceptLoss(acknowledgedThrough:recording:)``), and then it returns what proved it, for the report.
    private func checkUnacknowledged(segment: String, offset: UInt64, reason: String, indexClaim: LogPosition) throws(EventLogError) -> String? {
        let proof: (position: LogPosition, source: String)?
        if indexClaim > head {
            proof = (indexClaim, "the stream index shows")
        } else if let record = HeadRecord.load(libraryAt: path).record, record.position > head {
            proof = (record.position, "the library's head record (HEAD) shows")
        } else if case .refuse(let witness) = acknowledgedTail, let seen = witness?(), seen > head {
            proof = (seen, "the read models show")
        } else {
            proof = nil
        }
        guard let proof else { return nil }
        let shown = "\(proof.source) that position \(proof.position) was acknowledged"
        guard case .refuse = acknowledgedTail else { return shown }
        throw .damagedAcknowledgedCommit(segment: segment, offset: offset, reason: "\(reason); \(shown), so this is damage, not a torn write")
    }

    /// Whether a whole, valid frame starts anywhere in `bytes` at or after `start`.
    func containsValidFrame(_ bytes: [UInt8], after start: Int) -> Bool { Self.containsValidFrame(bytes, after: start) }

    static func containsValidFrame(_ bytes: [UInt8], after start: Int) -> Bool {
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

    /// The segment files, numbered 1... without gaps. A last segment whose header is torn, holding no
    /// valid frame (a crash while it was being created, before any commit in it was acknowledged), is
    /// left out and returned apart, for the writer to set aside.
    ///
    /// Segments no compaction has rewritten yet stay open (`pinned`): a writer may compact them at any
    /// moment, and a reader goes on reading the files it listed, whose sizes and frames it knows.
    /// Every segment's file stays open in ``listed`` (up to ``ListedSegment/heldLimit`` of them), so that
    /// the next listing, the writer's under the lock just after the one made at open, reads only the
    /// folder and each file's size. A compacted segment that the ``SegmentCatalog`` describes as it is
    /// is not opened at all; `catalog` is what of the kept one this listing found still true, for the
    /// writer to check the rest against and keep.
    private func listSegments() throws(EventLogError) -> (
        segments: [Segment], pinned: [UInt32: File], tornLastSegment: (number: UInt32, name: String, size: UInt64)?,
        catalog: SegmentCatalog
    ) {
        var inodes: [UInt32: UInt64] = [:]
        compactionLeftovers = []
        for entry in try FileSystem.entries(of: layout.logDirectory) {
            if let number = Segment.number(inName: entry.name) { inodes[number] = entry.inode }
            if entry.name.hasSuffix(Self.compactingSuffix) { compactionLeftovers.append(entry.name) }
        }
        listedInodes = inodes
        let numbers = inodes.keys.sorted()
        let holding = numbers.count <= ListedSegment.heldLimit
        var found: [Segment] = []
        var pinned: [UInt32: File] = [:]
        var torn: (number: UInt32, name: String, size: UInt64)?
        let known = listed
        listed = [:]
        let kept = catalog ?? SegmentCatalog.load(from: layout.indexDirectory)
        catalog = kept
        var foundCatalog = SegmentCatalog()
        for (i, number) in numbers.enumerated() {
            guard number == UInt32(i + 1) else { throw .missingSegment(name: Segment.name(of: UInt32(i + 1))) }
            let path = layout.segmentPath(number)
            let isLast = i == numbers.count - 1
            if holding, let same = known[number], same.inode == inodes[number] {
                let identity = try same.file.identity()
                found.append(Segment(header: same.header, path: path, size: UInt64(identity.size)))
                listed[number] = same
                if same.header.generation == 0 { pinned[number] = same.file }
                if !isLast, let entry = kept.entries[number], entry.identity == identity { foundCatalog.entries[number] = entry }
                continue
            }
            let keptEntry = isLast ? nil : kept.entry(for: number, at: path)
            if let entry = keptEntry, entry.header.generation > 0 {
                found.append(Segment(header: entry.header, path: path, size: UInt64(entry.identity.size)))
                foundCatalog.entries[number] = entry
                continue
            }
            let file = try File.openForReading(path)
            let identity = try file.identity()
            let (size, inode) = (UInt64(identity.size), identity.inode)
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
                torn = (number, Segment.name(of: number), size)
                break
            }
            guard header.number == number else {
                throw .damagedLog(segment: Segment.name(of: number), offset: 20, reason: "its header names segment \(header.number)")
            }
            found.append(Segment(header: header, path: path, size: size))
            if holding { listed[number] = ListedSegment(header: header, file: file, inode: inode) }
            if header.generation == 0 { pinned[number] = file }
            if let entry = keptEntry, entry.identity == identity, entry.header == header { foundCatalog.entries[number] = entry }
        }
        return (found, pinned, torn, foundCatalog)
    }

    /// Keeps the catalog the last listing found true, when it differs from the one on disk (writer only).
    func saveSegmentCatalog() {
        guard let listedCatalog, listedCatalog != catalog else { return }
        listedCatalog.save(in: layout.indexDirectory, noting: setAsides)
        catalog = listedCatalog
    }

    /// Leftovers of an interrupted compaction, as the last listing found them: removed by the writer,
    /// once every segment is known to be readable.
    func removeCompactionLeftovers() throws(EventLogError) {
        guard !compactionLeftovers.isEmpty else { return }
        let folder = try layout.logFolder()
        for name in compactionLeftovers { try folder.remove(name) }
        compactionLeftovers = []
    }
}
