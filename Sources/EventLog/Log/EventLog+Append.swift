import CoreValues
import Foundation

extension EventLog {
    /// Appends `commit` as one frame. `durably`: fsync it before returning; otherwise it is durable once
    /// ``syncAppended()`` returns (group commit: a batch of commits, or a copy of a shared log's, pays
    /// one fsync). `chained`: its first line carries `prev` (false only for a
    /// copy of a commit written before the chain, so that the copy keeps its bytes).
    func append(_ commit: Commit, durably: Bool = true, chained: Bool = true) throws(EventLogError) -> AppendResult {
        try validate(commit)

        // Check every expectation before writing anything.
        var versions: [StreamID: Int] = [:]
        for stream in commit.events.map(\.stream) + commit.expectations.keys.sorted() where versions[stream] == nil {
            let current = try currentVersion(of: stream)
            if let expected = commit.expectations[stream], !expected.admits(current) {
                throw .versionConflict(stream: stream, expected: expected, actual: current)
            }
            versions[stream] = current
        }

        // Encode the commit as JSON lines, the first chained to the commit before, then as one frame.
        try upgradeFormatIfNeeded()
        let previous: CommitHash
        do {
            previous = try previousForNextCommit()
        } catch let error as EventLogError {
            throw error
        } catch {
            throw .damagedLog(segment: segments.last?.name ?? "(none)", offset: 0, reason: "the last commit cannot be read: \(error)")
        }
        let encoder = EnvelopeEncoder(commit: commit)
        lineBuffer.removeAll(keepingCapacity: true)
        var lineOffsets: [UInt32] = []
        lineOffsets.reserveCapacity(commit.events.count)
        var position = head
        for event in commit.events {
            position = position.next
            let version = versions[event.stream]! + 1
            versions[event.stream] = version
            lineOffsets.append(UInt32(lineBuffer.count))
            encoder.appendLine(
                for: event, position: position, version: version, previous: lineOffsets.count == 1 && chained ? previous : nil,
                to: &lineBuffer)
        }
        frameBuffer.removeAll(keepingCapacity: true)
        lineBuffer.withUnsafeBytes { LZ4Frame.compress($0, into: &frameBuffer) }

        // Write it where it belongs, durably.
        let (segmentIndex, offset) = try placeFrame(of: UInt64(frameBuffer.count))
        let segment = segments[segmentIndex]
        let file = try appendTarget(segment)
        do {
            // A segment's entry in log/ is synced before its first frame is written, whoever created it
            // (perhaps a writer killed before it could): a frame in a segment proves its entry durable.
            if offset == UInt64(SegmentHeader.size) { try FileSystem.syncDirectory(layout.logDirectory) }
            try file.write(frameBuffer, at: offset)
            if durably { try file.sync() }
        } catch {
            // A failed sync may have lost earlier unsynced frames too: they go back with this one.
            if durably, let unsynced = unsyncedFrom {
                takeBackUnsynced(unsynced)
                throw error
            }
            // Not acknowledged: take the bytes back so that the next commit does not land after them.
            try? file.truncate(to: offset)
            try? file.sync()
            throw error
        }

        // Acknowledged, or written for ``syncAppended()`` to make durable.
        if durably { unsyncedFrom = nil } else if unsyncedFrom == nil { unsyncedFrom = (segment.number, offset) }
        let first = head.next
        segments[segmentIndex].size = offset + UInt64(frameBuffer.count)
        head = position
        for (i, event) in commit.events.enumerated() {
            index.add(IndexEntry(
                streamHash: streamHash(event.stream), position: first.rawValue + UInt64(i),
                segment: segment.number, frameOffset: UInt32(offset), lineOffset: lineOffsets[i]))
        }
        let hash = lineBuffer.withUnsafeBytes(CommitHash.of)
        rememberChainTip(hash)
        if chained {
            appendedCommitEnds[first.rawValue > 1 ? LogPosition(first.rawValue - 1) : .none] = previous
            appendedCommitEnds[position] = hash
        }
        if durably {
            persistIndex()
            recordHead()
        }
        for (stream, version) in versions { knownVersions[stream] = version }
        let written = Set(commit.events.map(\.stream))
        return AppendResult(positions: first...position, streamVersions: versions.filter { written.contains($0.key) })
    }

    private func validate(_ commit: Commit) throws(EventLogError) {
        guard !commit.events.isEmpty else { throw .emptyCommit }
        guard commit.actor.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw .invalidActor(reason: "it is empty")
        }
        guard commit.actor.utf8.count <= 200 else { throw .invalidActor(reason: "it is longer than 200 bytes") }
        if let control = ControlCharacter.first(in: commit.actor) {
            throw .invalidActor(reason: "it holds the control character \(ControlCharacter.name(control)), which a terminal would obey")
        }
        for (i, event) in commit.events.enumerated() {
            guard Identifier.isValid(event.type, maxLength: 100) else {
                throw .invalidEvent(index: i, reason: "type \"\(event.type)\" must be 1 to 100 characters of A-Z a-z 0-9 . _ : -")
            }
            guard event.schemaVersion >= 1 else {
                throw .invalidEvent(index: i, reason: "schema version must be 1 or more")
            }
            guard event.payload.withUnsafeBytes(JSONText.isSingleLineValue) else {
                throw .invalidEvent(index: i, reason: "the payload must be one JSON value with no raw line breaks")
            }
        }
    }

    /// The segment (as an array index) and offset for a frame of `length` bytes, rolling to a new
    /// segment when the last one is full. A new segment is created with its header, not yet synced.
    private func placeFrame(of length: UInt64) throws(EventLogError) -> (Int, UInt64) {
        if let last = segments.last,
            last.size == UInt64(SegmentHeader.size) || last.size + length <= sealSize
        {
            return (segments.count - 1, last.size)
        }
        // Sealed: frames a killed writer left unsynced, which this one took as part of the log, become
        // durable before anything follows them in the next segment.
        if let last = segments.last {
            try appendTarget(last).sync()
            unsyncedFrom = nil
        }
        let number = UInt32(segments.count + 1)
        let header = SegmentHeader(number: number, firstPosition: head.next, generation: 0)
        let path = layout.segmentPath(number)
        let file = try layout.logFolder().open(Segment.name(of: number), flags: O_RDWR | O_CREAT | O_EXCL)
        try file.write(header.bytes, at: 0)
        segments.append(Segment(header: header, path: path, size: UInt64(SegmentHeader.size)))
        appendFile = (number, file)
        return (segments.count - 1, UInt64(SegmentHeader.size))
    }

    private func appendTarget(_ segment: Segment) throws(EventLogError) -> File {
        if let (number, file) = appendFile, number == segment.number { return file }
        let file = try layout.logFolder().open(segment.name, flags: O_RDWR)
        appendFile = (segment.number, file)
        return file
    }
}
