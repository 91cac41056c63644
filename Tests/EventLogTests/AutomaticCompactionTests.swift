import Foundation
import Testing

@testable import EventLog

/// The writer compacts the segments it seals, with nothing asking it to.
@Suite("Automatic compaction")
struct AutomaticCompactionTests {
    /// Commits of three episodes' retitles, one write section each, as commands make them.
    static func commits(_ count: Int) -> [Commit] {
        (1...count).map { i in
            Given.commit(Given.event(
                StreamID(rawValue: "episode-\(i % 3)")!, "EpisodeRetitled",
                #"{"episodeID":"episode-\#(i % 3)","title":"Episode \#(i % 3), take \#(i): a title long enough to fill frames"}"#))
        }
    }

    @Test("each segment a writer seals is compacted before it lets the lock go, and every event reads back as appended")
    func sealedSegmentsAreCompacted() throws {
        // Given a log whose segments seal at 2 KiB, and the same commits in a log that never compacts
        let library = TemporaryLibrary()
        let plain = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 2048))
        let uncompacted = try EventLog.create(
            at: plain.path, id: log.libraryID!, options: EventLog.Options(segmentSizeLimit: 2048, automaticCompaction: nil))

        // When commits are appended, each in its own write section
        for commit in Self.commits(120) {
            try log.write { try $0.append(commit) }
            try uncompacted.write { try $0.append(commit) }
        }

        // Then every sealed segment was rewritten once, the one being written was not, and the log is smaller
        let reopened = try library.open()
        let summaries = reopened.segmentSummaries
        #expect(summaries.count > 3)
        #expect(summaries.dropLast().allSatisfy { $0.generation == 1 }, "\(summaries)")
        #expect(summaries.last?.generation == 0)
        let compactedBytes = summaries.dropLast().map(\.bytes).reduce(0, +)
        let before = try plain.open().segmentSummaries.filter { $0.firstPosition < summaries.last!.firstPosition }
        #expect(compactedBytes < before.map(\.bytes).reduce(0, +))
        // And the events, by position and by stream, are the ones appended, as a log that never compacts holds them
        let expected = try uncompacted.events()
        #expect(try reopened.events() == expected)
        for stream in ["episode-0", "episode-1", "episode-2"] as [StreamID] {
            #expect(try reopened.events(in: stream) == expected.filter { $0.stream == stream })
        }
        #expect(try reopened.lastCommitHash() == uncompacted.lastCommitHash())
        #expect(try reopened.verify().isClean)
        #expect(log.automaticCompactionFailure == nil)
    }

    @Test("a writer that appends many segments' worth in one section compacts them all at its end")
    func oneLongSection() throws {
        // Given a log whose segments seal at 1 KiB
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 1024, indexMergeThreshold: 16))

        // When one section appends all the commits
        let appended = try log.write { writer in try Self.commits(80).map { try writer.append($0) } }

        // Then the sealed segments are compacted, and streams read through the index as the positions say
        #expect(log.segmentSummaries.dropLast().allSatisfy { $0.isCompacted })
        let reopened = try library.open()
        #expect(try reopened.events().map(\.position) == appended.map(\.positions.lowerBound))
        #expect(try reopened.events(in: "episode-1").map(\.streamVersion) == Array(1...27))
        #expect(try reopened.verify().isClean)
    }

    @Test("the stream index is moved with the frames: every entry, in the sorted run or the tail, leads to its event")
    func indexFollowsTheFrames() throws {
        // Given a log whose index merges often, so that compacted segments' entries are in both index files
        let library = TemporaryLibrary()
        let options = EventLog.Options(segmentSizeLimit: 1024, indexMergeThreshold: 8)
        let log = try library.create(options)

        // When commits seal and compact segment after segment
        for commit in Self.commits(90) { try log.write { try $0.append(commit) } }

        // Then a reader that loads the index files finds each event where its entry says, without rebuilding
        let reader = try library.open(options)
        #expect(reader.index.covered == 90)
        for stream in ["episode-0", "episode-1", "episode-2"] as [StreamID] {
            let entries = try #require(reader.index.entries(for: streamHash(stream)))
            #expect(entries.count == 30)
            for entry in entries {
                #expect(try reader.entryMatchesLog(entry), "position \(entry.position) in segment \(entry.segment)")
            }
        }
        #expect(reader.segmentSummaries.dropLast().allSatisfy { $0.generation == 1 })
    }

    @Test("the part not yet compacted stays under 512 KiB or an eighth of the compacted part")
    func sealSizeFollowsTheLog() throws {
        // Given a log with the default limits, on memory so that its syncs cost nothing
        let library = TemporaryLibrary(inMemory: true)
        let log = try library.create()
        var random = SystemRandomNumberGenerator()
        var biggest: UInt64 = 0

        // When 6.6 MB of commits that hardly compress are appended, one section each
        for i in 1...220 {
            let noise = (0..<2_000).map { _ in String(random.next() as UInt64, radix: 16) }.joined()
            let event = Given.event("noise", "Measured", #"{"i":\#(i),"noise":"\#(noise)"}"#)
            try log.write { try $0.append(Given.commit(event)) }
            biggest = max(biggest, log.segments.last!.size)

            // Then after each section the segment being written weighs no more than the seal size allows
            let sealed = log.segments.dropLast().map(\.size).reduce(0, +)
            let frame: UInt64 = 64 << 10
            #expect(log.segments.last!.size <= max(512 << 10, sealed / 8) + frame)
            #expect(log.segments.dropLast().allSatisfy { $0.header.generation == 1 })
        }
        // And segments grew past 512 KiB as the log did
        #expect(biggest > 512 << 10)
        #expect(try library.open().events(in: "noise").count == 220)
    }

    @Test("a reader that opened the log before a compaction reads on through the files it listed")
    func readerDuringCompaction() throws {
        // Given a reader that opened the log while its segments were not yet compacted
        let library = TemporaryLibrary()
        let writer = try library.create(EventLog.Options(segmentSizeLimit: 2048, automaticCompaction: nil))
        try writer.write { writer in for commit in Self.commits(60) { try writer.append(commit) } }
        let expected = try writer.events()
        let reader = try library.open()

        // When another instance seals a segment and compacts every sealed one
        let compactor = try library.open(EventLog.Options(segmentSizeLimit: 2048))
        try compactor.write { writer in for commit in Self.commits(20) { try writer.append(commit) } }
        #expect(compactor.segmentSummaries.dropLast().allSatisfy { $0.isCompacted })

        // Then the reader reads everything it knew of, by position and by stream, without looking again
        #expect(try reader.events() == expected)
        #expect(try reader.events(in: "episode-2") == expected.filter { $0.stream == "episode-2" })
        // And once it looks again it reads the compacted files, and what was appended since
        try reader.refresh()
        #expect(try reader.events().count == 80)
        #expect(try Array(reader.events().prefix(60)) == expected)
    }
}
