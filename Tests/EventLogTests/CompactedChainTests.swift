import Foundation
import Testing

@testable import EventLog

/// Log format 3: a compacted frame stores the `prev` of its first commit only; each other commit's is
/// the hash of the commit before it, which the frame itself gives.
extension ChainTests {
    /// 120 commits, every 25th of three events, in sealed segments of 16 KiB that no writer compacted yet.
    func compactableLibrary() throws -> (library: TemporaryLibrary, log: EventLog) {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 16 << 10, automaticCompaction: nil))
        try log.write { writer in
            for i in 1...120 {
                if i % 25 == 0 {
                    try writer.append(Given.commit(Given.event("a"), Given.event("b"), Given.event("a")))
                } else {
                    try writer.append(Given.commit(Given.event("s", "Step", #"{"i":\#(i)}"#)))
                }
            }
        }
        return (library, log)
    }

    /// Frames of about 4 KiB: several to a segment.
    static let smallFrames = CompactionSettings(frameContentSize: 4096, level: 4)

    /// The lines of `content` as appended: each left-out `prev` put back as the SHA-256 of the commit
    /// before it, which this test computes on its own rather than through `CommitWalker`. Every commit
    /// of these libraries carries a `prev`, which marks where it starts.
    func restored(_ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], commit: [UInt8] = []
        for line in content.split(separator: 0x0A) {
            var text = String(decoding: line, as: UTF8.self)
            if text.contains(#""prev":""#) {
                if !commit.isEmpty {
                    let previous = sha256(commit)
                    out += commit
                    commit = []
                    text = text.replacingOccurrences(of: #""prev":"""#, with: #""prev":"\#(previous)""#)
                }
            }
            commit += Array(text.utf8) + [0x0A]
        }
        return out + commit
    }

    /// Every line of the log, or of one stream, as read.
    func lines(of log: EventLog, stream: StreamID? = nil, asAppended: Bool = false) throws -> [String] {
        var lines: [String] = []
        let keep = { (envelope: EventEnvelope) in lines.append(String(decoding: envelope.line, as: UTF8.self)) }
        switch (stream, asAppended) {
        case (let stream?, true): try log.readAsAppended(stream: stream, keep)
        case (let stream?, false): try log.read(stream: stream, keep)
        case (nil, true): try log.readAsAppended(from: LogPosition(1), through: nil, keep)
        case (nil, false): try log.read(keep)
        }
        return lines
    }

    func lines(_ content: [UInt8]) -> [String] { content.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) } }

    @Test("compaction leaves out the prev of a frame's commits after its first, and every commit's hash stays as it was")
    func compactionLeavesPrevOut() throws {
        let (library, log) = try compactableLibrary()
        let sealed = log.segments.dropLast().map(\.header.number)
        #expect(sealed.count >= 2)
        let appended = try sealed.map { try frameContents(library, segment: $0).flatMap { $0 } }
        let before = try log.verify()
        #expect(before.isClean, "\(before)")
        let logLines = try lines(of: log), streamLines = try lines(of: log, stream: "s")
        // A library an older build wrote: compaction brings it to format 3 first.
        try library.write(Array("episodic library format 2\n".utf8), to: library.path + "/FORMAT")

        let report = try library.open(EventLog.Options(automaticCompaction: nil)).write { try $0.compact(Self.smallFrames) }

        #expect(report.segmentsCompacted == sealed.count)
        #expect(String(decoding: try library.read(library.path + "/FORMAT"), as: UTF8.self) == "episodic library format 3\n")
        var leftOut = 0
        for (number, original) in zip(sealed, appended) {
            let frames = try frameContents(library, segment: number)
            #expect(frames.count > 1)
            for frame in frames.map({ lines($0) }) {
                // The first commit to begin in a frame stores its prev; every later one leaves it out.
                let prevs = frame.compactMap { $0.firstMatch(of: #/"prev":"([0-9a-f]*)"/#)?.1 }
                #expect(prevs.first?.count == 64)
                #expect(prevs.dropFirst().allSatisfy { $0.isEmpty })
                leftOut += prevs.count - 1
            }
            // Putting back each left-out hash gives, byte for byte, the lines as they were appended.
            #expect(restored(frames.flatMap { $0 }) == original)
        }
        #expect(leftOut > 100)
        // The JSON counted is the JSON appended, hashes included.
        #expect(report.jsonBytes == UInt64(appended.reduce(0) { $0 + $1.count }))

        // Readers that show the log get every line as appended, by position and by stream; a replay
        // reads them as stored.
        let compacted = try library.open()
        #expect(try lines(of: compacted, asAppended: true) == logLines)
        #expect(try lines(of: compacted, stream: "s", asAppended: true) == streamLines)
        #expect(try lines(of: compacted).filter { $0.contains(#""prev":"""#) }.count == leftOut)

        let after = try library.open().verify()
        #expect(after.isClean, "\(after)")
        #expect(after.commits == before.commits)
        #expect(after.headHash == before.headHash)

        // Compacting again into other frames stores the prevs that now begin a frame.
        try library.open().write { _ = try $0.compact(CompactionSettings(includeCompacted: true)) }
        for (number, original) in zip(sealed, appended) {
            let frames = try frameContents(library, segment: number)
            #expect(frames.count == 1)
            #expect(restored(frames[0]) == original)
        }
        #expect(try library.open().verify().isClean)

        // A writer goes on with the chain.
        try Given.appended(3, to: "t", in: try library.open())
        let last = try library.open().verify()
        #expect(last.isClean, "\(last)")
        #expect(last.commits == before.commits + 3)
    }

    @Test("an event's identity is that of its line as appended, before compaction and after it")
    func identityOutlivesCompaction() throws {
        let (library, log) = try compactableLibrary()
        let before = try (1...log.head.rawValue).map { try log.identity(at: LogPosition($0)) }
        try log.write { _ = try $0.compact(Self.smallFrames) }
        let after = try library.open()
        #expect(try (1...after.head.rawValue).map { try after.identity(at: LogPosition($0)) } == before)
        #expect(before.allSatisfy { $0 != nil })
    }

    @Test("an edit inside a compacted frame breaks the chain at the next frame; a prev left out where compaction keeps it is reported")
    func compactedTampering() throws {
        let (library, log) = try compactableLibrary()
        try log.write { _ = try $0.compact(Self.smallFrames) }
        let pristine = try frameContents(library)
        let nextFrameStart = try #require(EnvelopeParser.leadingPosition(
            Array(pristine[1].prefix { $0 != 0x0A }).withUnsafeBytes { UnsafeRawBufferPointer($0) }))

        // Commit 3, in the middle of the first frame, says 9 instead of 3.
        var edited = pristine
        edited[0] = Array(String(decoding: edited[0], as: UTF8.self).replacingOccurrences(of: #"{"i":3}"#, with: #"{"i":9}"#).utf8)
        try rewrite(library, frames: edited)
        var problems = try EventLog.verify(libraryAt: library.path).problems.map(\.message)
        #expect(problems.count == 1 && problems[0].contains("the chain breaks at the commit at position \(nextFrameStart)"), "\(problems)")

        // The second frame's first commit leaves its prev out, as if it followed on.
        var unpinned = pristine
        unpinned[1] = Array(String(decoding: unpinned[1], as: UTF8.self).replacingOccurrences(
            of: #""prev":"[0-9a-f]{64}""#, with: #""prev":"""#, options: .regularExpression).utf8)
        try rewrite(library, frames: unpinned)
        problems = try EventLog.verify(libraryAt: library.path).problems.map(\.message)
        #expect(problems == ["the commit at position \(nextFrameStart) leaves its prev out as the first commit of its frame, whose prev compaction always writes"])

        // A commit appended, not compacted, that leaves its prev out.
        try rewrite(library, frames: pristine)
        let last = try #require(log.segments.last?.header.number)
        var appended = try frameContents(library, segment: last)
        let position = try #require(EnvelopeParser.leadingPosition(
            Array(appended[1].prefix { $0 != 0x0A }).withUnsafeBytes { UnsafeRawBufferPointer($0) }))
        appended[1] = Array(String(decoding: appended[1], as: UTF8.self).replacingOccurrences(
            of: #""prev":"[0-9a-f]{64}""#, with: #""prev":"""#, options: .regularExpression).utf8)
        try rewrite(library, segment: last, frames: appended)
        problems = try EventLog.verify(libraryAt: library.path).problems.map(\.message)
        #expect(problems == ["the commit at position \(position) leaves its prev out in a segment compaction never rewrote"])
    }

    @Test("a writer refuses to chain after a log whose first commit leaves its prev out, rather than search forever")
    func unresolvablePrev() throws {
        let (library, _) = try chainedLibrary()
        // Every prev left out: the last commit's hash leads back to the first, which names none.
        let content = String(decoding: try frameContents(library).flatMap { $0 }, as: UTF8.self).replacingOccurrences(
            of: #""prev":"[0-9a-f]{64}""#, with: #""prev":"""#, options: .regularExpression)
        try rewrite(library, frames: [Array(content.utf8)])

        #expect {
            try Given.appended(1, to: "t", in: try library.open())
        } throws: { error in
            guard case EventLogError.brokenChain(_, let reason)? = error as? EventLogError else { return false }
            return reason.contains("leaves its prev out")
        }
    }

    @Test("a walk that begins inside a compacted frame knows no hash until a commit that stores its prev")
    func walkFromInsideAFrame() throws {
        let (library, log) = try compactableLibrary()
        try log.write { _ = try $0.compact(Self.smallFrames) }
        let frames = try frameContents(library)
        let content = frames.flatMap { $0 }
        let firstOfSecondFrame = try #require(EnvelopeParser.leadingPosition(
            Array(frames[1].prefix { $0 != 0x0A }).withUnsafeBytes { UnsafeRawBufferPointer($0) }))
        // The true hash of each commit, by its first position, from the lines as appended.
        var truth: [LogPosition: String] = [:]
        var commit: [UInt8] = [], first: LogPosition?
        for line in restored(content).split(separator: 0x0A) {
            let position = try #require(EnvelopeParser.leadingPosition(Array(line).withUnsafeBytes { UnsafeRawBufferPointer($0) }))
            if String(decoding: line, as: UTF8.self).contains(#""prev":""#) {
                if let first { truth[first] = sha256(commit) }
                (commit, first) = ([], position)
            }
            commit += Array(line) + [0x0A]
        }
        if let first { truth[first] = sha256(commit) }

        // From the second line of the first frame on.
        var walker = CommitWalker(startsACommit: false)
        var hashes: [(LogPosition, CommitHash?)] = []
        for line in content.split(separator: 0x0A).dropFirst() {
            try Array(line).withUnsafeBytes { bytes in
                if let (commit, hash) = walker.add(try EnvelopeParser.parse(bytes)) { hashes.append((commit.first, hash)) }
            }
        }
        if let (commit, hash) = walker.finish() { hashes.append((commit.first, hash)) }

        #expect(hashes.count == truth.count - 1)  // all but the commit at position 1
        for (position, hash) in hashes {
            if position < firstOfSecondFrame {
                #expect(hash == nil, "position \(position)")
            } else {
                #expect(hash?.hex == truth[position], "position \(position)")
            }
        }
    }
}
