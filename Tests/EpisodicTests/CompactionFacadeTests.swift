import Episodic
import EventLog
import Foundation
import Testing

/// An app compacts the log and goes on with the same `Library`: nothing it holds in memory may point
/// at the frames compaction moved.
@Suite("Compacting through the facade")
struct CompactionFacadeTests {
    @Test("after compactLog, the same Library writes, reads streams and lists, verifies, and info counts the compacted segments")
    func sameInstanceAfterwards() throws {
        let studio = try FacadeLibrary()
        let podcast = try studio.createPodcast("Night Shift")
        let episodes = try (1...40).map { try studio.createEpisode(in: podcast, "Episode \($0), with a longer title to fill frames") }
        // A library's writers compact each segment they seal, and seal none before 512 KiB; the same
        // commits, in segments of 2 KiB written by a writer that does not, give sealed ones to compact.
        let path = studio.folder + "/segmented"
        let source = try EventLog(at: studio.library.path)
        var commits: [StoredCommit] = []
        try source.readCommits(from: LogPosition(1)) { commits.append($0) }
        let target = try EventLog.create(
            at: path, id: source.libraryID!, options: EventLog.Options(segmentSizeLimit: 2 << 10, automaticCompaction: nil))
        try target.write { try $0.copy(commits) }

        let library = try Library(at: path)
        let listed = try library.episodes(EpisodeQuery(podcast: podcast))
        let hash = try library.verify().log.headHash
        let sealed = library.logSegments.filter(\.isSealed).count
        #expect(sealed >= 3)

        let report = try library.compactLog()
        #expect(report.segmentsCompacted == sealed)
        #expect(report.bytesAfter < report.bytesBefore)
        #expect(library.logSegments.filter(\.isSealed).allSatisfy { $0.isCompacted })
        #expect(try library.compactLog().segmentsCompacted == 0)

        #expect(try library.episodes(EpisodeQuery(podcast: podcast)) == listed)
        #expect(try library.history(of: episodes[0]).count == 1)
        let retitled = try library.submit([Submission(.episode(.id(episodes[0]), .retitle("First")))], actor: "tester")
        #expect(try retitled.results[0].get().positions == LogPosition(42)...LogPosition(42))
        #expect(try library.episodeDetail(episodes[0])?.title == "First")
        #expect(try library.history(of: episodes[0]).count == 2)
        let verification = try library.verify()
        #expect(verification.isClean)
        #expect(verification.log.headHash != hash)

        let info = try library.info()
        #expect(info.head == LogPosition(42))
        #expect(info.segments.filter(\.isCompacted).count == sealed)
        #expect((info.podcasts.live, info.podcasts.deleted) == (1, 0))
        #expect((info.episodes.live, info.episodes.deleted) == (40, 0))
    }
}
