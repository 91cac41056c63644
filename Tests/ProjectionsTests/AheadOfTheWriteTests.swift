import CoreValues
import DomainTestSupport
import EventLog
import Foundation
import GRDB
import Testing

@testable import Projections

/// Work a command does ahead of its write: its projection made while the log syncs it.
@Suite("Ahead of the write")
struct AheadOfTheWriteTests {
    @Test("a catch-up commits nothing before its beforeCommit returns, and nothing at all when it throws")
    func beforeCommitComesFirst() throws {
        // Given read models at the head of a log, and two more commands appended
        let studio = try StudioLibrary()
        for command in CommandPool.setup { try studio.must(command) }
        let model = try studio.openReadModel()
        try studio.log.write { _ in try model.catchUp(with: studio.log) }
        let before = studio.log.head
        try studio.must(Scene.createEpisode(7, "Seventh"))
        try studio.must(Scene.createEpisode(8, "Eighth"))

        // When a catch-up's beforeCommit fails (as a failed sync of the log does)
        struct SyncFailed: Error {}
        var calls = 0
        var seenOnDisk: LogPosition?
        #expect(throws: SyncFailed.self) {
            try studio.log.write { _ in
                try model.catchUp(with: studio.log, beforeCommit: {
                    calls += 1
                    seenOnDisk = ReadModel.furthestCheckpoint(in: studio.path)
                    throw SyncFailed()
                })
            }
        }

        // Then it ran once, with nothing of the new events committed then or after
        #expect(calls == 1)
        #expect(seenOnDisk == before)
        #expect(ReadModel.furthestCheckpoint(in: studio.path) == before)
        #expect(try model.database.read { try String.fetchOne($0, sql: "SELECT title FROM sidebar_episodes WHERE title = 'Seventh'") } == nil)

        // And the next catch-up, whose beforeCommit returns, projects them
        try studio.log.write { _ in try model.catchUp(with: studio.log, beforeCommit: { calls += 1 }) }
        #expect(calls == 2)
        #expect(ReadModel.furthestCheckpoint(in: studio.path) == studio.log.head)
        #expect(try model.database.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sidebar_episodes WHERE title IN ('Seventh', 'Eighth')") } == 2)
    }
}
