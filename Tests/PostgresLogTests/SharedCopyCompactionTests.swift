import CoreValues
import EventLog
import Foundation
import PostgresLog
import Testing
import TestSupport

/// A shared library's copy on each machine is an `EventLog` in its folder: its writers compact the
/// segments they seal, as a library of one's own does, without changing what the copy holds.
@Suite("Compacting a shared library's copy", .enabled(if: try PostgresServer.isAvailable, "no PostgreSQL server could be started"))
struct SharedCopyCompactionTests {
    /// Copies whose segments seal at 4 KiB, so that a few dozen commits seal several.
    static let options = EventLog.Options(segmentSizeLimit: 4 << 10)

    static func commit(_ i: Int) -> Commit {
        Commit(
            events: [ProposedEvent(
                stream: StreamID(rawValue: "episode-\(i % 4)")!, type: "EpisodeRetitled",
                json: #"{"title":"Episode \#(i % 4), take \#(i): a title long enough to fill frames"}"#)],
            commandID: CommandID(UUID()), actor: "ana", timestamp: Timestamp(rawValue: 1_795_000_000_000 + Int64(i))!)
    }

    @Test("the copy of the machine that writes and the copy of one that catches up are compacted, and hold the server's log")
    func copiesAreCompacted() throws {
        // Given a shared library, a machine that writes to it and a machine that only reads it
        let folder = TemporaryFolder("shared-copy-compaction")
        let schema = PostgresServer.freshSchema()
        let endpoint = try PostgresEndpoint(url: PostgresServer.shared!.url)
        let id = try PostgresSchema.prepare(schema, libraryID: LibraryID(), on: try session())
        let ana = try EventLog.create(at: folder.path + "/ana", id: id, options: Self.options)
        let writer = SharedStore(local: ana, endpoint: endpoint, schema: schema)
        let bo = try EventLog.create(at: folder.path + "/bo", id: id, options: Self.options)
        let reader = SharedStore(local: bo, endpoint: endpoint, schema: schema)

        // When the first appends commits, each in a writer section of its own, and the second catches up
        for i in 1...80 {
            try writer.withWriter(acknowledgedThrough: nil) { appender in
                _ = try appender.append(Self.commit(i), blobs: [], claims: [])
            }
        }
        try reader.refresh()

        // Then both copies' sealed segments are compacted, as each copy's writer sealed them
        for copy in [ana, bo] {
            let summaries = copy.segmentSummaries
            #expect(summaries.count > 2)
            #expect(summaries.dropLast().allSatisfy { $0.generation == 1 }, "\(summaries)")
        }
        // And both hold the server's 80 events, hashing alike, by position and by stream
        let events = try ana.events()
        #expect(events.count == 80)
        #expect(try bo.events() == events)
        #expect(try bo.events(in: "episode-3") == events.filter { $0.stream == "episode-3" })
        #expect(try ana.lastCommitHash() == bo.lastCommitHash())
        #expect(try writer.sharedLog().head().position == LogPosition(80))
        #expect(try ana.verify().isClean && bo.verify().isClean)
    }
}
