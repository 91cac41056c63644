import CoreValues
import DomainTestSupport
import EventLog
import Foundation
import GRDB
import Testing

@testable import Projections

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// Work a command does ahead of its write, and what its reads leave for it: its projection made while
/// the log syncs it, statements kept compiled across its lookups.
@Suite("Ahead of the write")
struct AheadOfTheWriteTests {
    @Test("a writer's lookups keep every statement it prepared compiled, as its writes do")
    func readsKeepPreparedStatements() throws {
        // Given read models at the head of a log, with a write projected
        let studio = try ShellWrittenLibrary()
        try studio.must(Scene.createShow())
        let model = try studio.openReadModel()
        try studio.log.write { _ in try model.catchUp(with: studio.log) }

        // When the write path's lookups run between catch-ups, as a command's decision makes them
        for n in 1...5 {
            #expect(try model.podcastNames() == [Scene.show: "Merge Conflict"])
            #expect(try model.episode(number: n, in: Scene.show) == nil)
            try studio.must(Scene.createEpisode(n, "Episode \(n)", number: n))
            try studio.log.write { _ in try model.catchUp(with: studio.log) }
            #expect(try model.episode(number: n, in: Scene.show) == Scene.episode(n))
            #expect(try model.highestNumbered(in: Scene.show, limit: 1).first?.number == n)
            #expect(try model.entities(withIDPrefix: Scene.show.description).map(\.entity) == [.podcast(Scene.show)])
            #expect(try model.episodeIDs(in: Scene.show).count == n)
            #expect(try model.episodesNamingFonts().isEmpty)
        }

        // Then SQLite compiled none of the statements again: a read had marked the connection read-only
        // and back (`PRAGMA query_only`), expiring every statement it had prepared
        #expect(Self.recompilations(of: model) == 0)
        #expect(ReadModel.furthestCheckpoint(in: studio.path) == studio.log.head)
    }

    @Test("a catch-up commits nothing before its beforeCommit returns, and nothing at all when it throws")
    func beforeCommitComesFirst() throws {
        // Given read models at the head of a log, and two more commands appended
        let studio = try ShellWrittenLibrary()
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

    /// How many times SQLite compiled again a statement the connection keeps prepared.
    static func recompilations(of model: ReadModel) -> Int32 {
        preparedStatements(of: model) { sqlite3_stmt_status($0, SQLITE_STMTSTATUS_REPREPARE, 0) }.reduce(0, +)
    }

    /// `read` of each statement the connection keeps prepared.
    static func preparedStatements<Value>(of model: ReadModel, _ read: (OpaquePointer) -> Value) -> [Value] {
        model.database.writeWithoutTransaction { db in
            var values: [Value] = []
            var statement = sqlite3_next_stmt(db.sqliteConnection, nil)
            while let current = statement {
                values.append(read(current))
                statement = sqlite3_next_stmt(db.sqliteConnection, current)
            }
            return values
        }
    }
}
