import Foundation
import Testing

@testable import EventLog

/// The stream index's three files: a run, a smaller recent run after it, and a short tail after that,
/// so that what a command reads of the index does not grow with the log.
@Suite("Stream index levels")
struct IndexLevelsTests {
    static let threshold = 4
    static let options = EventLog.Options(segmentSizeLimit: 1024, indexMergeThreshold: threshold)
    static let streams = (0..<5).map { StreamID(rawValue: "s\($0)")! }

    /// The index files of the library at `path` as they are on disk: the run, the recent run if there
    /// is one, and how many entries the tail holds.
    struct Files {
        let run: SortedRun?
        let recent: SortedRun?
        let tailEntries: Int

        init(_ library: TemporaryLibrary) throws {
            run = SortedRun(path: library.path + "/index/streams.sorted")
            recent = SortedRun(path: library.path + "/index/streams.recent")
            let tail = (try? library.size(of: library.path + "/index/streams.tail")).map(Int.init) ?? StreamIndex.tailHeaderSize
            tailEntries = (tail - StreamIndex.tailHeaderSize) / IndexEntry.size
        }

        /// Every entry of both runs, each of which must pass its check.
        func sortedEntries() throws -> [IndexEntry] {
            var entries: [IndexEntry] = []
            for run in [run, recent].compactMap({ $0 }) {
                for i in 0..<run.entryCount { entries.append(try #require(run.entry(at: i), "entry \(i) of a run fails its check")) }
            }
            return entries
        }
    }

    @Test("however long the log, the tail stays under the merge threshold and the recent run under an eighth of the run")
    func levelsStayBounded() throws {
        // Given a writer merging at 4 entries
        let library = TemporaryLibrary()
        let log = try library.create(Self.options)
        var recentRuns = Set<UInt64>()
        var runs = Set<UInt64>()
        // When 600 commits are appended, one writer section each
        for i in 0..<600 {
            try log.write { writer in _ = try writer.append(Given.commit(Given.event(Self.streams[i % Self.streams.count]))) }
            // Then after each, the files continue each other and stay within their bounds
            let files = try Files(library)
            let run = files.run?.covered ?? 0
            #expect(files.tailEntries < Self.threshold, "after commit \(i + 1)")
            if let recent = files.recent {
                #expect(recent.base == run, "after commit \(i + 1)")
                #expect(recent.entryCount < max(Self.threshold, (files.run?.entryCount ?? 0) / 8), "after commit \(i + 1)")
                recentRuns.insert(recent.covered)
            }
            #expect((files.recent?.covered ?? run) + UInt64(files.tailEntries) == UInt64(i + 1), "after commit \(i + 1)")
            #expect(StreamIndex.claimedCoverage(in: library.path + "/index") == UInt64(i + 1), "after commit \(i + 1)")
            runs.insert(run)
        }
        // and both runs were written many times over, the recent one between the run's merges
        #expect(runs.count > 10)
        #expect(recentRuns.count > runs.count)
        // and every stream reads back as the log holds it, through the index and by a scan
        let reader = try library.open(Self.options)
        for stream in Self.streams {
            let scanned = try reader.events().filter { $0.stream == stream }
            #expect(try reader.events(in: stream) == scanned)
            #expect(scanned.count == 120)
        }
    }

    @Test("a segment compacted while the recent run holds its entries: they are moved to its new frames, where its events are")
    func compactionRelocatesTheRecentRun() throws {
        // Given a log whose recent run holds all the entries of a sealed segment, not compacted yet
        let library = TemporaryLibrary()
        let options = EventLog.Options(segmentSizeLimit: 1024, indexMergeThreshold: Self.threshold, automaticCompaction: nil)
        let log = try library.create(options)
        /// The sealed segments whose positions are all in the recent run.
        func inRecentRun() throws -> [Segment] {
            let files = try Files(library)
            guard let recent = files.recent else { return [] }
            let sealed = log.segments.dropLast()
            return zip(sealed, log.segments.dropFirst()).filter { segment, next in
                segment.header.firstPosition.rawValue > recent.base && next.header.firstPosition.rawValue - 1 <= recent.covered
            }.map(\.0)
        }
        var i = 0
        while try i < 200 || inRecentRun().isEmpty {
            try log.write { writer in _ = try writer.append(Given.commit(Given.event(Self.streams[i % Self.streams.count]))) }
            i += 1
            try #require(i < 2_000)
        }
        let chosen = try inRecentRun()
        let run = try #require(try Files(library).run)
        let before = try log.events()

        // When they are compacted
        let report = try log.write { _ in try log.compact(chosen, CompactionSettings(frameContentSize: 1 << 12)) }
        #expect(report.segmentsCompacted == chosen.count)

        // Then the run is as it was, and every entry of every index file points at a frame that holds its position
        let files = try Files(library)
        #expect(files.run?.covered == run.covered && files.recent != nil)
        let reader = try library.open(options)
        let frames = FrameReader(readAhead: FrameReader.lookupReadAhead)
        let entries = try files.sortedEntries()
        #expect(entries.count + files.tailEntries == before.count)
        #expect(entries.contains { entry in chosen.contains { $0.number == entry.segment } })
        for entry in entries {
            let position = try reader.withEvent(at: entry, reader: frames) { $0.position }
            #expect(position == LogPosition(entry.position), "entry of position \(entry.position)")
        }
        // and the log reads as it did
        #expect(try reader.events() == before)
        for stream in Self.streams { #expect(try reader.events(in: stream) == before.filter { $0.stream == stream }) }
    }

    @Test("a merge into the run stops before the segment being written, so compacting it once sealed does not write the run again")
    func runMergeStopsBeforeTheOpenSegment() throws {
        // Given a log just after a merge into the run, made while a segment was being written
        let library = TemporaryLibrary()
        let options = EventLog.Options(segmentSizeLimit: 1024, indexMergeThreshold: Self.threshold, automaticCompaction: nil)
        let log = try library.create(options)
        let runPath = library.path + "/index/streams.sorted"
        var i = 0
        func append() throws {
            try log.write { writer in _ = try writer.append(Given.commit(Given.event(Self.streams[i % Self.streams.count]))) }
            i += 1
        }
        var run = FileIdentity(path: runPath)
        // (appending until a merge into the run happens late enough for the run to be long)
        while i < 120 || FileIdentity(path: runPath) == run {
            run = FileIdentity(path: runPath)
            try append()
            try #require(i < 2_000)
        }
        run = FileIdentity(path: runPath)
        let merged = try #require(try Files(library).run)
        let open = try #require(log.segments.last)
        // Then the run ends before the segment being written
        #expect(merged.covered == open.header.firstPosition.rawValue - 1)

        // When that segment is sealed and compacted, with nothing merged into the run meanwhile
        while log.segments.last!.number == open.number { try append() }
        #expect(FileIdentity(path: runPath) == run)
        let sealed = try #require(log.segments.first { $0.number == open.number })
        let report = try log.write { _ in try log.compact([sealed], CompactionSettings(frameContentSize: 1 << 12)) }
        #expect(report.segmentsCompacted == 1)

        // Then the run was not written again, and the log reads as it did
        #expect(FileIdentity(path: runPath) == run)
        let reader = try library.open(options)
        let all = try reader.events()
        #expect(all.count == i)
        for stream in Self.streams { #expect(try reader.events(in: stream) == all.filter { $0.stream == stream }) }
        let frames = FrameReader(readAhead: FrameReader.lookupReadAhead)
        for entry in try Files(library).sortedEntries() {
            #expect(try reader.withEvent(at: entry, reader: frames) { $0.position } == LogPosition(entry.position))
        }
    }

    @Test("an entry of the run found damaged while merging makes the writer rebuild the index, which then merges again")
    func damagedRunEntryRebuilds() throws {
        // Given a run of a dozen entries or more, one of which fails its check: one that a search for
        // stream s0 does not step on, so that only a merge meets it
        let library = TemporaryLibrary()
        let options = EventLog.Options(segmentSizeLimit: 1024, indexMergeThreshold: Self.threshold, automaticCompaction: nil)
        let log = try library.create(options)
        for i in 0..<18 {
            try log.write { writer in _ = try writer.append(Given.commit(Given.event(Self.streams[i % Self.streams.count]))) }
        }
        let run = try #require(try Files(library).run)
        #expect(run.covered >= 12)
        let hash = streamHash(Self.streams[0])
        var read = Set<Int>()
        var low = 0, high = run.entryCount
        while low < high {
            let middle = (low + high) / 2
            read.insert(middle)
            if try #require(run.entry(at: middle)).streamHash < hash { low = middle + 1 } else { high = middle }
        }
        read.formUnion((low - 1)...(low + 4))
        let damaged = try #require((0..<run.entryCount).first { !read.contains($0) })
        let sorted = try library.read(library.path + "/index/streams.sorted")
        let firstEntry = SortedRun.headerSize + 8 * Int(sorted.littleEndian(at: 12, as: UInt32.self))
        try library.flipBit(in: library.path + "/index/streams.sorted", at: UInt64(firstEntry + damaged * IndexEntry.size + 29))
        #expect(try Files(library).run?.entry(at: damaged) == nil)

        // When a writer appends to s0 enough to merge the tail into the run
        let writer = try library.open(options)
        for _ in 0..<20 {
            try writer.write { writer in _ = try writer.append(Given.commit(Given.event(Self.streams[0]))) }
        }

        // Then the run was written again, every entry checking, the tail stayed short, and every stream reads right
        let files = try Files(library)
        #expect(try files.sortedEntries().count == Int((files.recent ?? files.run)!.covered))
        #expect(files.tailEntries < Self.threshold)
        let all = try writer.events()
        for stream in Self.streams { #expect(try library.open(options).events(in: stream) == all.filter { $0.stream == stream }) }
    }
}
