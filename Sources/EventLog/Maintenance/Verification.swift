import CoreValues
import Foundation

/// What ``EventLog/verify()`` found.
public struct VerificationReport: Sendable, CustomStringConvertible {
    /// One thing that is not as it was written.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The file (a segment's name, `FORMAT`, `ID`) and byte offset, when the problem is in one; nil
        /// for a blob.
        public var segment: String?
        public var offset: UInt64?
        public var message: String

        public init(segment: String?, offset: UInt64?, message: String) {
            self.segment = segment
            self.offset = offset
            self.message = message
        }

        public var description: String {
            if let segment, let offset { return "\(segment) at byte \(offset): \(message)" }
            return message
        }
    }

    public var segments = 0
    public var frames = 0
    public var commits = 0
    public var events: UInt64 = 0
    public var streams = 0
    public var blobs = 0
    /// The first position whose commit is chained to the one before it; nil when no commit is (a log
    /// written entirely before format 2). Commits before it are checked for everything but the chain.
    public var chainStart: LogPosition?
    /// The hash of the log's last commit, in hex. Noted down somewhere else, it lets a later verify tell
    /// whether anything up to here was changed, the last commit included.
    public var headHash: String?
    /// Bytes at the end of the log that are not a whole commit, when nothing shows they were
    /// acknowledged: a command died while writing them, and the next writer sets them aside. Not a
    /// problem (nothing acknowledged is missing), but worth saying. When the stream index shows they
    /// were acknowledged, they are a problem instead.
    public var unacknowledgedTail: UnreadableTail?
    public var problems: [Problem] = []

    public var isClean: Bool { problems.isEmpty }

    public var description: String {
        let summary = "\(segments) segments, \(frames) frames, \(events) events in \(streams) streams, \(blobs) blobs"
        guard !isClean else { return "log verified: \(summary); no problems." }
        return "log damaged: \(summary); \(problems.count) problems:\n"
            + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
}

extension EventLog {
    /// Reads everything and checks it: the FORMAT and ID files, every field of every segment header,
    /// every frame's descriptor and checksum, every line's JSON, positions 1, 2, 3... without gaps, each
    /// stream's versions 1, 2, 3... without gaps, the hash chain from commit to commit, and the sha256 of
    /// every blob an event refers to. It reports every problem it finds rather than stopping at the first.
    public func verify() throws(EventLogError) -> VerificationReport {
        try Self.verify(layout, reader: maintenance, blobs: blobs)
    }

    /// Verifies the library at `path` without opening its log first, so that a log too damaged to
    /// open (a gap, a frame out of place, a FORMAT file that cannot be read) still gets its full report.
    /// Throws only when there is no library there, or a file cannot be read at all.
    public static func verify(libraryAt path: String) throws(EventLogError) -> VerificationReport {
        guard FileSystem.isDirectory(path) == true, FileSystem.exists(path + "/FORMAT") else { throw .libraryMissing(path: path) }
        let layout = LibraryLayout(unverifiedAt: path)
        return try verify(layout, reader: FrameReader(readAhead: FrameReader.scanReadAhead), blobs: BlobStore(directory: layout.blobDirectory))
    }

    private static func verify(_ layout: LibraryLayout, reader: FrameReader, blobs: BlobStore) throws(EventLogError) -> VerificationReport {
        var check = LogCheck(layout: layout, reader: reader, blobs: blobs)
        check.checkFormatAndID()
        try check.checkSegments()
        check.checkHeadRecord()
        check.checkBlobs()
        return check.report
    }
}

/// The state of one ``EventLog/verify()`` walk.
private struct LogCheck {
    let layout: LibraryLayout
    let reader: FrameReader
    let blobs: BlobStore
    var report = VerificationReport()
    /// The library's id, from which the first commit's chain starts; nil when ID cannot be read.
    var libraryID: LibraryID?
    var formatVersion = LibraryLayout.formatVersion
    var expected = LogPosition(1)
    var streamVersions: [String: Int] = [:]
    var referenced = Set<BlobRef>()
    var commits = CommitWalker()
    /// The hash of the last commit the walk finished.
    var previousHash: CommitHash?
    /// The library's head record, and the hash of the commit the walk found ending at its position.
    let headRecord: HeadRecord.Loaded
    var hashAtRecordedHead: CommitHash?

    init(layout: LibraryLayout, reader: FrameReader, blobs: BlobStore) {
        self.layout = layout
        self.reader = reader
        self.blobs = blobs
        headRecord = HeadRecord.load(libraryAt: layout.root)
    }

    mutating func problem(_ file: String?, _ offset: UInt64?, _ message: String) {
        report.problems.append(.init(segment: file, offset: offset, message: message))
    }

    mutating func checkFormatAndID() {
        guard let bytes = try? File.openForReading(layout.formatFile).read(count: 128, at: 0) else {
            return problem("FORMAT", 0, "cannot be read")
        }
        guard let version = try? LibraryLayout.parseFormat(bytes) else {
            return problem("FORMAT", 0, "is not an Episodic FORMAT file")
        }
        formatVersion = version
        if bytes != Array(LibraryLayout.formatText(version).utf8) {
            problem("FORMAT", 0, "holds more than \"\(LibraryLayout.formatText(version).dropLast())\" and a newline")
        }
        libraryID = layout.readID()
        if version >= 2, libraryID == nil {
            problem("ID", 0, "is missing or does not hold a library id (a UUID and a newline): the first commit's chain cannot be checked")
        }
    }

    mutating func checkSegments() throws(EventLogError) {
        let numbers = try FileSystem.contents(of: layout.logDirectory).compactMap(Segment.number(inName:)).sorted()
        for (i, number) in numbers.enumerated() {
            guard number == UInt32(i + 1) else {
                problem(nil, nil, "segment \(Segment.name(of: UInt32(i + 1))) is missing")
                break
            }
            report.segments += 1
            let file = try File.openForReading(layout.segmentPath(number))
            try checkSegment(number, file: file, isLast: i == numbers.count - 1)
        }
        if let (_, hash) = commits.finish() {
            report.headHash = hash?.hex
            if let record = headRecord.record, record.position.next == expected { hashAtRecordedHead = hash }
        }
        report.streams = streamVersions.count
    }

    private mutating func checkSegment(_ number: UInt32, file: File, isLast: Bool) throws(EventLogError) {
        let name = Segment.name(of: number)
        let size = try file.size()
        let header: SegmentHeader
        let headerBytes = try file.read(count: SegmentHeader.size, at: 0)
        switch Result(catching: { () throws(SegmentHeader.ParseFailure) in try SegmentHeader.parse(headerBytes) }) {
        case .success(let parsed): header = parsed
        case .failure(.newerFormat(let version)):
            return problem(name, 16, "its header says log format \(version), newer than this build reads")
        case .failure:
            if isLast, !EventLog.containsValidFrame(try file.readAll(), after: 0) {
                return tail(name, 0, size, "its header is not a segment header")
            }
            return problem(name, 0, "not a valid segment header")
        }
        if header.formatVersion > formatVersion {
            problem(name, 16, "its header says log format \(header.formatVersion), but the library's FORMAT says \(formatVersion)")
        }
        if header.number != number { problem(name, 20, "its header names segment \(header.number)") }
        if header.firstPosition != expected {
            problem(name, 24, "starts at position \(header.firstPosition), expected \(expected)")
        }
        if header.reserved != 0 { problem(name, 36, "its reserved header word is \(header.reserved), not 0") }

        var cursor = FrameCursor(file: file, from: UInt64(SegmentHeader.size), end: size, buffer: reader.fileBuffer)
        while true {
            switch try cursor.next() {
            case .end:
                return
            case .incomplete(let offset):
                return try badFrame(name, file, offset, size, "an incomplete frame of \(size - offset) bytes", isLast: isLast)
            case .invalid(let offset, let reason):
                return try badFrame(name, file, offset, size, "not an LZ4 frame: \(reason)", isLast: isLast)
            case .frame(let offset, let bytes):
                let length: Int
                do {
                    length = try reader.decode(bytes)
                } catch {
                    let rest = try file.read(count: Int(size - offset), at: offset)
                    if isLast, !EventLog.containsValidFrame(rest, after: 1) {
                        return tail(name, offset, size, "the frame fails its check: \(error.reason)")
                    }
                    report.frames += 1
                    problem(name, offset, "frame fails its check: \(error.reason)")
                    continue
                }
                report.frames += 1
                if let feature = LZ4Frame.unwrittenDescriptorFeature(bytes) { problem(name, offset, feature) }
                let lines = Lines(reader.content.bytes(0..<length))
                if lines.hasUnterminatedTail { problem(name, offset, "the frame's last line has no newline") }
                let place = Place(segment: name, frame: offset, compacted: header.generation > 0, commitsBefore: commits.started)
                for (_, line) in lines { checkLine(line, at: place) }
            }
        }
    }

    /// A frame that cannot be read: the end of the log (a torn tail) when nothing valid follows it in the
    /// last segment, damage otherwise.
    private mutating func badFrame(
        _ name: String, _ file: File, _ offset: UInt64, _ size: UInt64, _ reason: String, isLast: Bool
    ) throws(EventLogError) {
        guard isLast, !EventLog.containsValidFrame(try file.read(count: Int(size - offset), at: offset), after: 1) else {
            return problem(name, offset, reason)
        }
        tail(name, offset, size, reason)
    }

    /// Bad bytes at the very end of the log. The stream index is written only after a commit is on disk:
    /// if it covers a position past the last readable one, these bytes were an acknowledged commit.
    private mutating func tail(_ name: String, _ offset: UInt64, _ size: UInt64, _ reason: String) {
        let last = expected.rawValue - 1
        let claim = StreamIndex.claimedCoverage(in: layout.indexDirectory)
        if claim > last {
            return problem(name, offset, "\(reason); the stream index shows that position \(claim) was acknowledged, so this is damage, not a torn write")
        }
        report.unacknowledgedTail = UnreadableTail(segment: name, offset: offset, bytes: size - offset, reason: reason)
    }

    /// Where a line lies: what `prev` may be left out depends on it.
    private struct Place {
        var segment: String
        var frame: UInt64
        /// In a segment compaction rewrote.
        var compacted: Bool
        /// How many commits had started before the frame.
        var commitsBefore: Int
    }

    private mutating func checkLine(_ line: UnsafeRawBufferPointer, at place: Place) {
        let (segment, frame) = (place.segment, place.frame)
        let envelope: EventEnvelope
        do {
            envelope = try EnvelopeParser.parse(line, strict: true)
        } catch {
            return problem(segment, frame, "an event cannot be read: \(error)")
        }
        report.events += 1
        if envelope.position != expected {
            problem(segment, frame, "found position \(envelope.position) where \(expected) should be")
        }
        expected = envelope.position.next
        let stream = envelope.stream.rawValue
        let previous = streamVersions[stream] ?? 0
        if envelope.streamVersion != previous + 1 {
            problem(segment, frame, "stream \(stream) jumps from version \(previous) to \(envelope.streamVersion) at position \(envelope.position)")
        }
        streamVersions[stream] = envelope.streamVersion
        referenced.formUnion(envelope.blobs)

        let started = commits.started
        if let (_, hash) = commits.add(envelope) {
            previousHash = hash
            if let record = headRecord.record, record.position.next == envelope.position { hashAtRecordedHead = hash }
        }
        if commits.started > started, let commit = commits.current { checkChain(commit, at: place) }
    }

    /// Holds a commit that has just started to the hash of the one before it.
    private mutating func checkChain(_ commit: CommitWalker.Commit, at place: Place) {
        let (segment, frame) = (place.segment, place.frame)
        report.commits += 1
        if commit.leavesPreviousOut {
            // Compaction leaves out only what the frame itself pins: a left-out prev anywhere else would
            // let an edit pass unseen.
            if !place.compacted {
                problem(segment, frame, "the commit at position \(commit.first) leaves its prev out in a segment compaction never rewrote")
            } else if commits.started == place.commitsBefore + 1 {
                problem(segment, frame, "the commit at position \(commit.first) leaves its prev out as the first commit of its frame, whose prev compaction always writes")
            } else if report.chainStart == nil {
                problem(segment, frame, "the commit at position \(commit.first) leaves its prev out before the chain began")
            }
            return
        }
        if commit.malformedPrevious {
            return problem(segment, frame, "the commit at position \(commit.first) has a prev that is not 64 lowercase hex digits")
        }
        guard let claimed = commit.previous else {
            if let start = report.chainStart {
                problem(segment, frame, "the commit at position \(commit.first) carries no prev, though the chain began at position \(start): a commit was edited, or written by an older build")
            }
            return
        }
        if report.chainStart == nil { report.chainStart = commit.first }
        let isFirst = commits.started == 1
        let before: CommitHash
        if !isFirst {
            guard let previousHash else { return }  // The commit before left its prev out unpinned: reported there.
            before = previousHash
        } else if let libraryID {
            before = .genesis(of: libraryID)
        } else {
            return  // ID's own problem says why this cannot be checked.
        }
        if claimed != before {
            let what = isFirst ? "the library's genesis hash" : "the hash of the commit before it"
            problem(segment, frame, "the chain breaks at the commit at position \(commit.first): its prev is \(claimed), \(what) is \(before) (a frame, or a commit before it in its compacted frame, was edited, removed, reordered or copied from another library)")
        }
    }

    /// Holds the log to the head record (`HEAD`), which the writer keeps after each commit: a log that
    /// ends before the recorded position lost acknowledged commits; one whose commit there hashes
    /// otherwise holds another commit than was acknowledged.
    mutating func checkHeadRecord() {
        switch headRecord {
        case .absent, .unreadable:
            // A crash may leave the record torn (it is not synced): it then claims nothing, and the next
            // writer replaces it.
            return
        case .record(let record):
            let last = LogPosition(expected.rawValue - 1)
            if record.position > last {
                let lost = record.position == last.next ? "position \(record.position) is" : "positions \(last.next) to \(record.position) are"
                return problem(
                    nil, nil,
                    "\(lost) missing: the log ends at position \(last), but the library's head record (HEAD), written after each "
                        + "commit, shows that position \(record.position) was acknowledged")
            }
            if hashAtRecordedHead != record.hash {
                problem(
                    nil, nil,
                    "position \(record.position) holds another commit than the one acknowledged there: it hashes to "
                        + "\(hashAtRecordedHead?.short ?? "nothing whole"), where the library's head record (HEAD) recorded \(record.hash.short)")
            }
        }
    }

    mutating func checkBlobs() {
        for ref in referenced.sorted(by: { $0.sha256 < $1.sha256 }) {
            report.blobs += 1
            do {
                _ = try blobs.get(ref)
            } catch {
                problem(nil, nil, error.description)
            }
        }
    }
}
