import Foundation
import Testing

@testable import EventLog

@Suite("Recovery on open")
struct RecoveryTests {
    /// Four acknowledged commits, then a fifth whose frame the tests tear.
    func libraryWithFiveCommits() throws -> (TemporaryLibrary, payloads: [String]) {
        let library = TemporaryLibrary()
        let log = try library.create()
        try log.write { writer in
            for i in 1...5 {
                try writer.append(Given.commit(
                    Given.event("s", "Step", #"{"i":\#(i)}"#), Given.event("t", "Step", #"{"i":\#(i),"other":true}"#)))
            }
        }
        return (library, try log.allPayloads())
    }

    @Test("a tail torn at any byte of the last frame recovers to exactly the acknowledged commits")
    func tornAtEveryOffset() throws {
        let (library, payloads) = try libraryWithFiveCommits()
        let segment = library.segmentPath(1)
        let whole = try library.read(segment)
        let (frames, end) = try library.frameOffsets()
        let lastFrame = frames.last!
        let acknowledged = Array(payloads.prefix(8))

        for cut in lastFrame..<end {
            try library.write(Array(whole.prefix(Int(cut))), to: segment)

            let reader = try library.open()
            #expect(reader.head == LogPosition(8), "reader, cut at \(cut)")
            let recovery = try reader.write { $0.recovery }

            if cut == lastFrame {
                #expect(recovery == nil)
            } else {
                #expect(recovery?.segment == "00000001.seg")
                #expect(recovery?.offset == lastFrame)
                #expect(recovery?.bytesCut == cut - lastFrame)
                #expect(recovery?.lastAcknowledged == LogPosition(8))
            }
            #expect(try library.size(of: segment) == lastFrame)
            let reopened = try library.open()
            #expect(try reopened.allPayloads() == acknowledged, "cut at \(cut)")
            #expect(try reopened.events(in: "s").count == 4)
        }
        // The log goes on from there: the next commit takes the first unacknowledged position.
        let log = try library.open()
        let next = try log.write { try $0.append(Given.commit(Given.event("s", "Step", #"{"i":"next"}"#))) }
        #expect(next.positions == LogPosition(9)...LogPosition(9))
        #expect(try library.open().events(in: "s").map(\.streamVersion) == [1, 2, 3, 4, 5])
        #expect(try log.verify().isClean)
    }

    @Test("a corrupt final frame is cut off and reported with the positions it would have held")
    func corruptFinalFrame() throws {
        let (library, payloads) = try libraryWithFiveCommits()
        let (frames, end) = try library.frameOffsets()
        try library.flipBit(in: library.segmentPath(1), at: frames.last! + 24)  // inside the compressed block

        let recovery = try library.open().write { $0.recovery }

        #expect(recovery?.offset == frames.last!)
        #expect(recovery?.bytesCut == end - frames.last!)
        #expect(recovery?.reason.contains("checksum") == true)
        #expect(recovery?.description.contains("The log ends at position 8") == true)
        #expect(try library.open().allPayloads() == Array(payloads.prefix(8)))
    }

    @Test("the report names the positions a torn commit held when its first block survived")
    func partialPositions() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(1, to: "s", in: log)
        // A commit of about 300 KiB: the frame has several blocks, so a tear near its end leaves whole blocks.
        let big = (1...40).map { i in Given.event("big", "Chunk", #"{"i":\#(i),"text":"\#(String(repeating: "abcdefghij", count: 800))"}"#) }
        try log.write { try $0.append(Commit(events: big, commandID: CommandID(UUID()), actor: "ana", timestamp: Given.epoch)) }
        let (frames, end) = try library.frameOffsets()
        try library.truncate(library.segmentPath(1), to: end - 10)

        let recovery = try library.open().write { $0.recovery }

        #expect(recovery?.offset == frames.last!)
        #expect(recovery?.lastAcknowledged == LogPosition(1))
        let readable = recovery?.unacknowledged ?? []
        #expect(readable.count > 10 && readable.count < 40, "whole blocks before the tear, not the torn one")
        #expect(readable == (2..<(2 + UInt64(readable.count))).map { LogPosition($0) })
        #expect(recovery?.description.contains("positions 2-\(readable.count + 1)") == true)
        #expect(try library.open().head == LogPosition(1))
    }

    @Test("a flipped bit in a middle frame is an error naming the segment and byte offset")
    func flippedBitInTheMiddle() throws {
        let (library, _) = try libraryWithFiveCommits()
        let (frames, _) = try library.frameOffsets()
        try library.flipBit(in: library.segmentPath(1), at: frames[2] + 20)
        let expected = EventLogError.damagedLog(segment: "00000001.seg", offset: frames[2], reason: "")

        // Through the index, opening looks only at the tail; reading meets the damage and stops.
        let log = try library.open()
        let error = #expect(throws: EventLogError.self) { try log.read { _ in } }
        #expect(error?.isDamage(like: expected) == true, "\(String(describing: error))")

        // Without the index, opening scans everything and refuses.
        try FileManager.default.removeItem(atPath: library.path + "/index")
        let openError = #expect(throws: EventLogError.self) { try library.open() }
        #expect(openError?.isDamage(like: expected) == true, "\(String(describing: openError))")
        #expect(openError?.description.contains("00000001.seg at byte \(frames[2])") == true)

        // A writer does not mistake it for a torn tail.
        let before = try library.read(library.segmentPath(1))
        #expect(throws: EventLogError.self) { try EventLog(at: library.path).write { _ in } }
        #expect(try library.read(library.segmentPath(1)) == before)
    }

    @Test("damage in the last frame of a sealed segment is not a torn tail")
    func damagedSealedSegment() throws {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 1024))
        try Given.appended(12, to: "s", in: log)
        let (frames, end) = try library.frameOffsets(ofSegment: 1)
        #expect(FileManager.default.fileExists(atPath: library.segmentPath(2)))
        try library.flipBit(in: library.segmentPath(1), at: end - 3)
        try FileManager.default.removeItem(atPath: library.path + "/index")

        let error = #expect(throws: EventLogError.self) { try library.open() }
        #expect(error?.isDamage(like: .damagedLog(segment: "00000001.seg", offset: frames.last!, reason: "")) == true)
    }

    @Test("a segment whose header was torn at creation is removed by the next writer")
    func tornSegmentHeader() throws {
        let (library, payloads) = try libraryWithFiveCommits()
        try library.write(Array(SegmentHeader(number: 2, firstPosition: LogPosition(11), generation: 0).bytes.prefix(13)), to: library.segmentPath(2))

        #expect(try library.open().allPayloads() == payloads)
        let recovery = try library.open().write { $0.recovery }

        #expect(recovery?.segment == "00000002.seg")
        #expect(recovery?.bytesCut == 13)
        #expect(recovery?.lastAcknowledged == LogPosition(10))
        #expect(!FileManager.default.fileExists(atPath: library.segmentPath(2)))
    }

    @Test("a damaged header on a last segment that holds commits is damage: the segment is kept")
    func damagedHeaderIsNotTorn() throws {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 1024))
        try Given.appended(12, to: "s", in: log)
        let last = UInt32(log.segments.count)
        let path = library.segmentPath(last)
        try library.flipBit(in: path, at: 9)  // inside "EPISODIC"
        let before = try library.read(path)

        #expect(throws: EventLogError.damagedLog(segment: Segment.name(of: last), offset: 0, reason: "its header is not a segment header")) {
            try library.open().write { _ in }
        }
        #expect(try library.read(path) == before)
    }

    @Test("a missing segment is an error, not a shorter log")
    func missingSegment() throws {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 1024))
        try Given.appended(20, to: "s", in: log)
        try FileManager.default.removeItem(atPath: library.segmentPath(2))

        #expect(throws: EventLogError.missingSegment(name: "00000002.seg")) { try library.open() }
    }
}

extension EventLogError {
    /// Same segment and offset of damage, whatever the reason's words.
    func isDamage(like other: EventLogError) -> Bool {
        guard case let .damagedLog(segment, offset, _) = self, case let .damagedLog(otherSegment, otherOffset, _) = other
        else { return false }
        return segment == otherSegment && offset == otherOffset
    }
}
