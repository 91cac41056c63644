import Foundation
import Testing

@testable import EventLog

@Suite("Recovery on open")
struct RecoveryTests {
    /// Five commits of two events each. With `acknowledged` false, the fifth stands for one whose process
    /// died while writing it: the stream index is left as it was before it, so nothing outside the
    /// frame shows it was acknowledged.
    func libraryWithFiveCommits(fifthAcknowledged acknowledged: Bool) throws -> (TemporaryLibrary, payloads: [String]) {
        let library = TemporaryLibrary()
        let log = try library.create()
        try log.write { writer in
            for i in 1...4 { try writer.append(Self.step(i)) }
        }
        if acknowledged {
            try log.write { writer in try writer.append(Self.step(5)) }
        } else {
            try library.keepingAcknowledgementsAsTheyAre { _ = try log.write { writer in try writer.append(Self.step(5)) } }
        }
        return (library, try log.allPayloads())
    }

    static func step(_ i: Int) -> Commit {
        Given.commit(Given.event("s", "Step", #"{"i":\#(i)}"#), Given.event("t", "Step", #"{"i":\#(i),"other":true}"#))
    }

    @Test("a tail torn at any byte of a commit nothing acknowledged is set aside whole, and the log goes on")
    func tornAtEveryOffset() throws {
        let (library, payloads) = try libraryWithFiveCommits(fifthAcknowledged: false)
        let segment = library.segmentPath(1)
        let whole = try library.read(segment)
        let (frames, end) = try library.frameOffsets()
        let lastFrame = frames.last!
        let acknowledged = Array(payloads.prefix(8))

        for cut in lastFrame..<end {
            try library.write(Array(whole.prefix(Int(cut))), to: segment)
            let before = try library.snapshot()

            // A reader stops before the torn bytes, says so, and changes nothing.
            let reader = try library.open()
            #expect(reader.head == LogPosition(8), "reader, cut at \(cut)")
            #expect(try reader.allPayloads() == acknowledged)
            #expect(reader.unreadableTail?.offset == (cut == lastFrame ? nil : lastFrame))
            #expect(try library.snapshot() == before, "a reader changed the library, cut at \(cut)")

            // The writer sets them aside, byte for byte, and says what it did.
            let recovered = try reader.write { $0.recovered }
            if cut == lastFrame {
                #expect(recovered.isEmpty)
            } else {
                let report = try #require(recovered.first)
                #expect(recovered.count == 1)
                #expect(report.segment == "00000001.seg")
                #expect(report.offset == lastFrame)
                #expect(report.bytesCut == cut - lastFrame)
                #expect(report.lastAcknowledged == LogPosition(8))
                #expect(try library.read(library.path + "/" + report.quarantined) == Array(whole[Int(lastFrame)..<Int(cut)]))
                #expect(report.description.contains("set aside \(cut - lastFrame) bytes"))
            }
            #expect(try library.size(of: segment) == lastFrame)
            let reopened = try library.open()
            #expect(try reopened.allPayloads() == acknowledged, "cut at \(cut)")
            #expect(reopened.unreadableTail == nil)
            #expect(try reopened.events(in: "s").count == 4)
        }
        // The log goes on from there: the next commit takes the first unacknowledged position.
        let log = try library.open()
        let next = try log.write { try $0.append(Given.commit(Given.event("s", "Step", #"{"i":"next"}"#))) }
        #expect(next.positions == LogPosition(9)...LogPosition(9))
        #expect(try library.open().events(in: "s").map(\.streamVersion) == [1, 2, 3, 4, 5])
        #expect(try log.verify().isClean)
    }

    @Test("a corrupt last frame that nothing acknowledged is set aside and reported with the positions it held")
    func corruptUnacknowledgedFrame() throws {
        let (library, payloads) = try libraryWithFiveCommits(fifthAcknowledged: false)
        let (frames, end) = try library.frameOffsets()
        try library.flipBit(in: library.segmentPath(1), at: frames.last! + 24)  // inside the compressed block
        let damaged = try library.read(library.segmentPath(1))

        let recovered = try library.open().write { $0.recovered }

        let report = try #require(recovered.first)
        #expect(report.offset == frames.last!)
        #expect(report.bytesCut == end - frames.last!)
        #expect(report.reason.contains("checksum"))
        #expect(report.description.contains("The log ends at position 8"))
        #expect(try library.read(library.path + "/" + report.quarantined) == Array(damaged[Int(frames.last!)...]))
        #expect(try library.open().allPayloads() == Array(payloads.prefix(8)))
    }

    @Test("a last frame the stream index shows was acknowledged is damage: nothing is cut and writes are refused", arguments: [
        "flipped", "truncated", "zeroed",
    ])
    func acknowledgedTailIsDamage(how: String) throws {
        let (library, payloads) = try libraryWithFiveCommits(fifthAcknowledged: true)
        let (frames, end) = try library.frameOffsets()
        let segment = library.segmentPath(1)
        switch how {
        case "flipped": try library.flipBit(in: segment, at: end - 3)
        case "truncated": try library.truncate(segment, to: end - 7)
        default: try library.write(Array(try library.read(segment).prefix(Int(frames.last!))) + Array(repeating: 0, count: Int(end - frames.last!)), to: segment)
        }
        let before = try library.snapshot()

        let error = #expect(throws: EventLogError.self) { try library.open().write { _ in } }
        #expect(error?.isDamage(like: .damagedLog(segment: "00000001.seg", offset: frames.last!, reason: "")) == true)
        #expect(error?.description.contains("the stream index shows that position 10 was acknowledged") == true, "\(String(describing: error))")
        #expect(try library.snapshot() == before, "the writer cut an acknowledged commit")

        // Readers still read every commit before it, and say where the log stops.
        let reader = try library.open()
        #expect(try reader.allPayloads() == Array(payloads.prefix(8)))
        #expect(reader.unreadableTail?.offset == frames.last!)
    }

    @Test("a read model's checkpoint past the head proves acknowledgement as well")
    func witnessProvesAcknowledgement() throws {
        let (library, _) = try libraryWithFiveCommits(fifthAcknowledged: false)
        let (frames, _) = try library.frameOffsets()
        try library.flipBit(in: library.segmentPath(1), at: frames.last! + 24)
        let before = try library.snapshot()

        let error = #expect(throws: EventLogError.self) {
            try library.open().write(acknowledgedThrough: { LogPosition(10) }) { _ in }
        }
        #expect(error?.description.contains("the read models show that position 10 was acknowledged") == true)
        #expect(try library.snapshot() == before)

        // A witness that has seen no further than the head proves nothing: the tail is set aside.
        let recovered = try library.open().write(acknowledgedThrough: { LogPosition(8) }) { $0.recovered }
        #expect(recovered.first?.offset == frames.last!)
    }

    @Test("a damaged acknowledged tail is set aside only when the user accepts its loss, which the log records, and the log goes on")
    func acceptLossOfDamagedTail() throws {
        let (library, payloads) = try libraryWithFiveCommits(fifthAcknowledged: true)
        let (frames, _) = try library.frameOffsets()
        try library.flipBit(in: library.segmentPath(1), at: frames.last! + 24)
        let damaged = try library.read(library.segmentPath(1))

        let accepted = try #require(try library.open().acceptLoss(acknowledgedThrough: nil) { loss in
            Given.commit(Given.event("log", "LossAccepted", #"{"through":\#(loss.lost!.upperBound)}"#))
        })

        let report = try #require(accepted.loss.setAside.first)
        #expect(report.offset == frames.last!)
        #expect(report.discardedAcknowledged == "the stream index shows that position 10 was acknowledged")
        #expect(report.description.hasPrefix("discarded"))
        #expect(try library.read(library.path + "/" + report.quarantined) == Array(damaged[Int(frames.last!)...]))
        #expect(accepted.loss.lost == LogPosition(9)...LogPosition(10))
        #expect(accepted.loss.witness == "the library's head record (HEAD)")
        // The acceptance is the log's next commit, and the head record now names it.
        #expect(accepted.appended.positions == LogPosition(9)...LogPosition(9))
        let log = try library.open()
        #expect(try log.allPayloads() == Array(payloads.prefix(8)) + [#"{"through":10}"#])
        let next = try log.write { try $0.append(Self.step(6)) }
        #expect(next.positions.lowerBound == LogPosition(10))
        let again = try library.open().acceptLoss(acknowledgedThrough: nil) { _ in Issue.record("nothing was lost"); return Self.step(7) }
        #expect(again.map(\.loss) == nil)
        #expect(try library.open().verify().isClean)
    }

    @Test("the report names the positions a torn commit held when its first block survived")
    func partialPositions() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(1, to: "s", in: log)
        // A commit of about 300 KiB: the frame has several blocks, so a tear near its end leaves whole blocks.
        let big = (1...40).map { i in Given.event("big", "Chunk", #"{"i":\#(i),"text":"\#(String(repeating: "abcdefghij", count: 800))"}"#) }
        try library.keepingAcknowledgementsAsTheyAre {
            _ = try log.write { try $0.append(Commit(events: big, commandID: CommandID(UUID()), actor: "ana", timestamp: Given.epoch)) }
        }
        let (frames, end) = try library.frameOffsets()
        try library.truncate(library.segmentPath(1), to: end - 10)

        let recovery = try library.open().write { $0.recovered.first }

        #expect(recovery?.offset == frames.last!)
        #expect(recovery?.lastAcknowledged == LogPosition(1))
        let readable = recovery?.unacknowledged ?? []
        #expect(readable.count > 10 && readable.count < 40, "whole blocks before the tear, not the torn one")
        #expect(readable == (2..<(2 + UInt64(readable.count))).map { LogPosition($0) })
        #expect(recovery?.description.contains("positions 2-\(readable.count + 1) were never acknowledged") == true)
        #expect(try library.open().head == LogPosition(1))
    }

    @Test("a flipped bit in a middle frame is an error naming the segment and byte offset")
    func flippedBitInTheMiddle() throws {
        let (library, _) = try libraryWithFiveCommits(fifthAcknowledged: true)
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

    @Test("a segment whose header was torn at creation is moved to quarantine by the next writer")
    func tornSegmentHeader() throws {
        let (library, payloads) = try libraryWithFiveCommits(fifthAcknowledged: true)
        let torn = Array(SegmentHeader(number: 2, firstPosition: LogPosition(11), generation: 0).bytes.prefix(13))
        try library.write(torn, to: library.segmentPath(2))

        let reader = try library.open()
        #expect(try reader.allPayloads() == payloads)
        #expect(reader.unreadableTail?.segment == "00000002.seg")
        let recovery = try library.open().write { $0.recovered.first }

        #expect(recovery?.segment == "00000002.seg")
        #expect(recovery?.bytesCut == 13)
        #expect(recovery?.lastAcknowledged == LogPosition(10))
        #expect(!FileManager.default.fileExists(atPath: library.segmentPath(2)))
        #expect(try library.read(library.path + "/" + (recovery?.quarantined ?? "")) == torn)
        #expect(try library.open().write { try $0.append(Self.step(6)) }.positions.lowerBound == LogPosition(11))
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

    @Test("a pipe in place of a segment is an error at open, not a command waiting for a writer forever")
    func pipeForSegment() throws {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 1024))
        try Given.appended(20, to: "s", in: log)
        try FileManager.default.removeItem(atPath: library.segmentPath(2))
        #expect(mkfifo(library.segmentPath(2), 0o644) == 0)

        #expect(throws: EventLogError.self) { try library.open() }
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
    /// Same segment and offset of damage, whatever the reason's words, and whether or not the damaged
    /// commit had been acknowledged.
    func isDamage(like other: EventLogError) -> Bool {
        guard let (segment, offset) = damagePlace, let (otherSegment, otherOffset) = other.damagePlace else { return false }
        return segment == otherSegment && offset == otherOffset
    }

    private var damagePlace: (String, UInt64)? {
        switch self {
        case let .damagedLog(segment, offset, _), let .damagedAcknowledgedCommit(segment, offset, _): (segment, offset)
        default: nil
        }
    }
}

extension TemporaryLibrary {
    /// Runs `body`, then puts the stream index and the head record back as they were before: what a
    /// crash between an append and its sync leaves behind, since the writer indexes and records a commit
    /// only once it is on disk.
    func keepingAcknowledgementsAsTheyAre(_ body: () throws -> Void) throws {
        let index = path + "/index", saved = folder + "/index-saved"
        try? FileManager.default.removeItem(atPath: saved)
        try FileManager.default.copyItem(atPath: index, toPath: saved)
        let head = path + "/HEAD"
        let record = FileManager.default.contents(atPath: head)
        try body()
        try FileManager.default.removeItem(atPath: index)
        try FileManager.default.moveItem(atPath: saved, toPath: index)
        if let record { try Data(record).write(to: URL(fileURLWithPath: head)) } else { try? FileManager.default.removeItem(atPath: head) }
    }
}
