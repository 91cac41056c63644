import Foundation
import Testing

@testable import EventLog

@Suite("Segments and compaction")
struct SegmentAndCompactionTests {
    /// A library whose 1 KiB segment limit makes a new segment every few commits, written by a writer
    /// that leaves its sealed segments to ``LogWriter/compact(_:)``.
    func smallSegments(commits: Int = 40) throws -> (TemporaryLibrary, EventLog) {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 1024, automaticCompaction: nil))
        try log.write { writer in
            for i in 1...commits {
                try writer.append(Given.commit(
                    Given.event(StreamID(rawValue: "episode-\(i % 3)")!, "Retitled", #"{"title":"Episode \#(i) of the show","i":\#(i)}"#)))
            }
        }
        return (library, log)
    }

    @Test("segments roll at the size limit, and each starts where the previous one ended")
    func rolling() throws {
        let (library, log) = try smallSegments()
        let segments = log.segments
        #expect(segments.count > 3)
        for (previous, next) in zip(segments, segments.dropFirst()) {
            #expect(previous.size <= 1024)
            #expect(next.header.firstPosition > previous.header.firstPosition)
        }
        #expect(segments.map(\.header.number) == (1...UInt32(segments.count)).map { $0 })
        let events = try library.open().events()
        #expect(events.map(\.position.rawValue) == Array(1...40))
        for segment in segments.dropFirst() {
            #expect(events[Int(segment.header.firstPosition.rawValue) - 1].position == segment.header.firstPosition)
        }
    }

    @Test("compaction keeps every event and position, shrinks the log, and bumps each segment's generation")
    func compaction() throws {
        let (library, log) = try smallSegments(commits: 60)
        let before = try log.events()
        let streamBefore = try log.events(in: "episode-1")
        let sealed = log.segments.count - 1

        let report = try log.write { try $0.compact() }

        #expect(report.segmentsCompacted == sealed)
        #expect(report.bytesAfter < report.bytesBefore)
        #expect(report.jsonBytes > report.bytesAfter)
        #expect(log.segments.dropLast().allSatisfy { $0.header.generation == 1 })
        #expect(log.segments.last?.header.generation == 0)
        let reopened = try library.open()
        #expect(try reopened.events() == before)
        #expect(try reopened.events(in: "episode-1") == streamBefore)
        #expect(try reopened.events(from: LogPosition(31), through: LogPosition(33)) == Array(before[30...32]))
        #expect(try reopened.verify().isClean)
        // Compacted segments hold fewer, larger frames.
        #expect(try library.frameOffsets(ofSegment: 1).frames.count == 1)

        // A second compaction has nothing left to do; appending goes on as before.
        #expect(try log.write { try $0.compact() }.segmentsCompacted == 0)
        try Given.appended(1, to: "episode-1", in: log)
        #expect(try library.open().events(in: "episode-1").count == streamBefore.count + 1)
    }

    @Test("a log whose segments are pinned reads the files it pinned, after another process compacts them")
    func pinnedSegments() throws {
        let (library, log) = try smallSegments(commits: 60)
        let before = try log.events()
        let pinned = try library.open()
        try pinned.pinSegments()
        let frames = try library.frameOffsets(ofSegment: 1).frames.count

        try log.write { _ = try $0.compact() }

        #expect(try library.frameOffsets(ofSegment: 1).frames.count < frames)
        var read: [RecordedEvent] = []
        try pinned.read(where: nil, checkingChecksums: false) { read.append(RecordedEvent($0)) }
        #expect(read == before)
    }

    @Test("segments not yet compacted are held open from the start; pinning from a position opens the compacted ones that hold it and what follows")
    func pinnedFromPosition() throws {
        let (library, writer) = try smallSegments(commits: 60)
        try writer.write { _ = try $0.compact() }
        let log = try library.open()
        try #require(log.segments.count >= 3)
        #expect(Set(log.readFiles.keys) == [log.segments.last!.number])
        let third = log.segments[2]
        try log.pinSegments(from: third.header.firstPosition.next)
        #expect(Set(log.readFiles.keys) == Set(log.segments[2...].map(\.number)))
    }

    @Test("a segment's name is eight digits and .seg, nothing else: a sign or a space before a number is not one")
    func segmentNames() {
        #expect(Segment.number(inName: "00000012.seg") == 12)
        for name in ["+0000001.seg", "-0000001.seg", " 0000001.seg", "0000001a.seg", "0000001.seg", "00000001.seg.compacting"] {
            #expect(Segment.number(inName: name) == nil, "\(name)")
        }
    }

    @Test("listing the log again reads no header of a segment whose name still names the file it holds open")
    func listingKeepsHeldSegments() throws {
        let (library, _) = try smallSegments()
        let reader = try library.open()
        #expect(reader.segments[1].header.generation == 0)

        // Changed in place (nothing of ours does that), the name still names the file the reader holds.
        try library.flipBit(in: library.segmentPath(2), at: 32)
        try reader.refresh()

        #expect(reader.segments[1].header.generation == 0)
        #expect(try library.open().segments[1].header.generation == 16)
    }

    @Test("a segment file put in place since the log listed it is read again: another process's compaction, a rename")
    func listingRereadsReplacedSegments() throws {
        let (library, writer) = try smallSegments(commits: 60)
        let reader = try library.open()
        let before = try reader.events()

        try writer.write { _ = try $0.compact() }
        try reader.refresh()

        #expect(reader.segments.dropLast().allSatisfy { $0.header.generation == 1 })
        #expect(try reader.events() == before)

        let path = library.segmentPath(2)
        var bytes = try library.read(path)
        bytes[32] ^= 0x10
        try library.write(bytes, to: path + ".new")
        #expect(rename(path + ".new", path) == 0)
        try reader.refresh()

        #expect(reader.segments[1].header.generation == 17)
        #expect(try reader.events() == before)
    }

    @Test("a log of more segments than a process should hold open reads every header at every listing")
    func longLogsHoldNoSegments() throws {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 1024, automaticCompaction: nil))
        try log.write { writer in
            var i = 0
            while log.segments.count <= ListedSegment.heldLimit + 1 {
                i += 1
                try writer.append(Given.commit(Given.event("episode-1", "Retitled", #"{"title":"Episode \#(i) of the show","i":\#(i)}"#)))
            }
        }
        let reader = try library.open()
        #expect(reader.segments.count > ListedSegment.heldLimit)
        #expect(reader.listed.isEmpty)

        try library.flipBit(in: library.segmentPath(2), at: 32)
        try reader.refresh()
        #expect(reader.segments[1].header.generation == 16)

        let (shortLibrary, _) = try smallSegments()
        let shortReader = try shortLibrary.open()
        #expect(shortReader.listed.count == shortReader.segments.count)
    }

    @Test("a crash during compaction leaves the old segment in place and a leftover that the next writer removes")
    func interruptedCompaction() throws {
        let (library, log) = try smallSegments()
        let before = try log.events()
        let leftover = library.segmentPath(1) + ".compacting"
        try library.write(Array("half-written".utf8), to: leftover)
        try FileManager.default.removeItem(atPath: library.path + "/index")

        #expect(try library.open().events() == before)
        try library.open().write { _ in }
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }
}

@Suite("Stream index")
struct StreamIndexTests {
    @Test("a missing or damaged index is rebuilt from the log with the same answers")
    func rebuild() throws {
        let library = TemporaryLibrary()
        let options = EventLog.Options(indexMergeThreshold: 16)
        let log = try library.create(options)
        try log.write { writer in
            for i in 1...100 { try writer.append(Given.commit(Given.event(StreamID(rawValue: "s\(i % 9)")!, "E", #"{"i":\#(i)}"#))) }
        }
        let expected = try (0..<9).map { try log.events(in: StreamID(rawValue: "s\($0)")!) }
        #expect(FileManager.default.fileExists(atPath: library.path + "/index/streams.sorted"))

        for damage in ["remove", "garbage-tail", "short-sorted"] {
            switch damage {
            case "remove":
                try FileManager.default.removeItem(atPath: library.path + "/index")
            case "garbage-tail":
                try library.write(Array(repeating: 0xAB, count: 500), to: library.path + "/index/streams.tail")
            default:
                let sorted = library.path + "/index/streams.sorted"
                try library.truncate(sorted, to: try library.size(of: sorted) - 7)
            }
            let reopened = try library.open(options)
            #expect(reopened.head == LogPosition(100), "\(damage)")
            for i in 0..<9 {
                #expect(try reopened.events(in: StreamID(rawValue: "s\(i)")!) == expected[i], "\(damage)")
            }
            try reopened.write { _ in }  // the writer puts a good index back
        }
    }

    @Test("an index that points at the wrong frames is noticed and rebuilt")
    func staleIndex() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(5, to: "a", in: log)
        let index = try library.read(library.path + "/index/streams.tail")
        // Another history of the same length: the old index's offsets now point into different events.
        try FileManager.default.removeItem(atPath: library.path)
        let other = try library.create()
        try other.write { writer in
            try writer.append(Given.commit(Given.event("b", "Longer", #"{"padding":"\#(String(repeating: "p", count: 300))"}"#)))
            for _ in 1...4 { try writer.append(Given.commit(Given.event("a"))) }
        }
        try library.write(index, to: library.path + "/index/streams.tail")

        let reopened = try library.open()
        #expect(try reopened.events(in: "a").map(\.position.rawValue) == [2, 3, 4, 5])
        #expect(try reopened.events(in: "b").count == 1)
    }

    @Test("an entry of the sorted index that fails its check makes the reader rebuild, not answer short")
    func damagedSortedEntry() throws {
        let library = TemporaryLibrary()
        let options = EventLog.Options(indexMergeThreshold: 8)
        let log = try library.create(options)
        try log.write { writer in
            for i in 1...20 { try writer.append(Given.commit(Given.event(StreamID(rawValue: "s\(i % 2)")!))) }
        }
        let sorted = library.path + "/index/streams.sorted"
        let entries = try #require(SortedRun(path: sorted))
        #expect(entries.covered == 16)
        // Flip a bit in the middle of the run's first entry (after the 72-byte header and the one segment fingerprint).
        try library.flipBit(in: sorted, at: UInt64(SortedRun.headerSize + 8 + 9))

        let reopened = try library.open(options)
        #expect(try reopened.events(in: "s0").count == 10)
        #expect(try reopened.events(in: "s1").count == 10)
        let versions = try reopened.write { writer in [try writer.version(of: "s0"), try writer.version(of: "s1")] }
        #expect(versions == [10, 10])
    }

    @Test("an entry in the middle of the tail that fails its check makes readers and the writer rebuild")
    func damagedTailEntry() throws {
        let library = TemporaryLibrary()
        let options = EventLog.Options(indexMergeThreshold: 64)
        let log = try library.create(options)
        try log.write { writer in
            for i in 1...20 { try writer.append(Given.commit(Given.event(StreamID(rawValue: "s\(i % 2)")!))) }
        }
        // The tail is mapped at open and checked entry by entry as it is read: damage in its middle (a
        // crash can leave a hole in an unsynced file) is met by a stream read, not by the open.
        let tail = library.path + "/index/streams.tail"
        try library.flipBit(in: tail, at: UInt64(StreamIndex.tailHeaderSize + 10 * IndexEntry.size + 3))

        let reopened = try library.open(options)
        #expect(reopened.head == LogPosition(20))
        #expect(try reopened.events(in: "s0").map(\.position.rawValue) == Array(stride(from: 2, through: 20, by: 2)))
        #expect(try reopened.events(in: "s1").count == 10)

        // A writer that must merge the damaged tail rebuilds the index instead, and goes on.
        try library.flipBit(in: tail, at: UInt64(StreamIndex.tailHeaderSize + 4 * IndexEntry.size + 3))
        let writer = try library.open(EventLog.Options(indexMergeThreshold: 8))
        try writer.write { writer in
            for _ in 1...10 { try writer.append(Given.commit(Given.event("s0"))) }
        }
        let merged = try #require(SortedRun(path: library.path + "/index/streams.sorted"))
        #expect(merged.covered >= 20)
        #expect(try library.open(options).events(in: "s0").count == 20)
        #expect(try library.open(options).events(in: "s1").count == 10)
    }

    @Test("two instances writing in turn, merging the index between each other's loads: the index files hold every commit")
    func writersTakingTurnsAcrossMerges() throws {
        // Given two instances of one log, each loading the index when it opens and again under the lock
        let library = TemporaryLibrary()
        let options = EventLog.Options(indexMergeThreshold: 4)
        let logs = [try library.create(options), try library.open(options)]

        // When they write in turn, three commits each time: enough for either one's persist to merge,
        // into the run or, once it is long enough, into the recent run
        var recentRuns = 0
        for turn in 0..<60 {
            try logs[turn % 2].write { writer in
                for i in 0..<3 { try writer.append(Given.commit(Given.event(StreamID(rawValue: "s\(i)")!))) }
            }
            if FileManager.default.fileExists(atPath: library.path + "/index/streams.recent") { recentRuns += 1 }
        }

        // Then the files cover the whole log, and answer as the log does
        #expect(recentRuns > 10)
        #expect(StreamIndex.claimedCoverage(in: library.path + "/index") == 180)
        let reopened = try library.open(options)
        for i in 0..<3 {
            #expect(try reopened.events(in: StreamID(rawValue: "s\(i)")!).map(\.streamVersion) == Array(1...60))
        }
        for log in logs {
            let version = try log.write { writer in try writer.version(of: "s0") }
            #expect(version == 60)
        }
    }

    @Test("an index loaded again finds what another writer wrote to its files since: appended to the tail, or merged into new files")
    func loadAgainAfterAnotherWriter() throws {
        // Given an index loaded from a log's files
        let library = TemporaryLibrary()
        let options = EventLog.Options(indexMergeThreshold: 8)
        let log = try library.create(options)
        try log.write { writer in for _ in 0..<3 { try writer.append(Given.commit(Given.event("s"))) } }
        let index = StreamIndex(directory: library.path + "/index", mergeThreshold: 8, noting: SetAsideDerivedFiles())
        index.load(generations: log.generations)
        #expect(index.covered == 3)

        // When another writer appends to the tail, the next load finds it
        try log.write { writer in try writer.append(Given.commit(Given.event("s"))) }
        index.load(generations: log.generations)
        #expect(index.covered == 4)

        // And when it merges the tail into a new sorted run
        try log.write { writer in for _ in 0..<8 { try writer.append(Given.commit(Given.event("s"))) } }
        index.load(generations: log.generations)
        #expect(index.covered == 12)
        #expect(index.entries(for: streamHash(StreamID(rawValue: "s")!))?.count == 12)

        // And loaded again with nothing changed, it answers the same
        index.load(generations: log.generations)
        #expect(index.covered == 12)
    }

    @Test("reading a stream touches only that stream's frames, not the rest of the log")
    func streamReadsDoNotScan() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try log.write { writer in
            try writer.append(Given.commit(Given.event("mine", "E", #"{"i":1}"#)))
            for i in 1...20 { try writer.append(Given.commit(Given.event("others", "E", #"{"i":\#(i)}"#))) }
            try writer.append(Given.commit(Given.event("mine", "E", #"{"i":2}"#)))
        }
        let (frames, _) = try library.frameOffsets()
        // Damage every frame of the other stream: a scan would fail on the first of them.
        for offset in frames[1...20] { try library.flipBit(in: library.segmentPath(1), at: offset + 20) }

        let reopened = try library.open()
        #expect(try reopened.events(in: "mine").map(\.json) == [#"{"i":1}"#, #"{"i":2}"#])
        #expect(throws: EventLogError.self) { try reopened.read { _ in } }
    }

    @Test("streams whose hashes collide are told apart by their names")
    func hashCollisions() throws {
        // Different entries for different streams with an equal hash would be a 2^-64 accident; the
        // reader's check is what matters, so it is tested by calling it with a forged entry.
        let library = TemporaryLibrary()
        let log = try library.create()
        try log.write { writer in
            try writer.append(Given.commit(Given.event("a", "E", #"{"s":"a"}"#)))
            try writer.append(Given.commit(Given.event("b", "E", #"{"s":"b"}"#)))
        }
        let entryOfB = try #require(log.index.entries(for: streamHash("b"))?.first)
        log.index.add(IndexEntry(streamHash: streamHash("a"), position: 3, segment: entryOfB.segment, frameOffset: entryOfB.frameOffset, lineOffset: entryOfB.lineOffset))
        #expect(log.index.entries(for: streamHash("a"))?.count == 2)
        // The forged entry leads to an event of "b" at the wrong position: the reader rebuilds and answers right.
        #expect(try log.events(in: "a").map(\.json) == [#"{"s":"a"}"#])
    }
}
