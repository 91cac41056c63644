import DomainTestSupport
import EventCodec
import EventLog
import Foundation
import GRDB
import PodcastDomain
import Testing

@testable import Projections

/// A projector as a later build would ship it: same tables, the next schema version.
struct NextVersion<Base: Projector>: Projector {
    let base: Base
    var name: String { base.name }
    var schemaVersion: Int { base.schemaVersion + 1 }
    var tables: [String] { base.tables }
    func write(_ changes: EntityChanges, to db: Database) throws { try base.write(changes, to: db) }
}

@Suite("Migration by replay")
struct MigrationTests {
    /// A library of four events per episode, its read model built and current.
    func builtLibrary(episodes: Int = 60) throws -> (ShellWrittenLibrary, ReadModel) {
        let studio = try ShellWrittenLibrary()
        try studio.must(Scene.createShow())
        for n in 1...episodes {
            try studio.must(Scene.createEpisode(n, "Episode \(n)"))
            try studio.must(Scene.importTranscript(n, "00:00:0\(n % 10)\nHost\nPart \(n).\n"))
            try studio.must(Scene.on(n, .retitle("Episode \(n), revised")))
            if n % 3 == 0 { try studio.must(Scene.on(n, .delete)) } else { try studio.must(Scene.on(n, .describe("Notes \(n)"))) }
        }
        let readModel = try studio.openReadModel()
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        return (studio, readModel)
    }

    @Test("a projector whose schema version changed is rebuilt at open, into a new generation, with the same rows")
    func schemaChangeRebuilds() throws {
        let (studio, before) = try builtLibrary()
        let rows = try before.dump()
        // A reader that opened the old sidebar before the swap.
        let oldReader = try DatabaseQueue(path: try #require(before.file(of: "sidebar")))

        var reported: [RebuildProgress] = []
        let after = try ReadModel(
            library: studio.path, log: studio.log, projectors: [NextVersion(base: SidebarProjector()), EpisodeDetailProjector()],
            batchSize: 50, progress: { reported.append($0) })

        #expect(after.generation != before.generation)
        #expect(try after.dump() == rows)
        // Only the changed projector has a new file; the other is the file it was.
        #expect(after.file(of: "sidebar") != before.file(of: "sidebar"))
        #expect(after.file(of: "episode-detail") == before.file(of: "episode-detail"))
        let status = try after.status(head: studio.log.head)
        #expect(status.first { $0.name == "sidebar" }?.storedSchemaVersion == SidebarProjector().schemaVersion + 1)
        #expect(status.allSatisfy { $0.isCurrent })
        // Only the changed projector was replayed; progress went up to the whole log.
        #expect(reported.last?.done == studio.log.head.rawValue)
        #expect(reported.last?.total == studio.log.head.rawValue)
        #expect(reported.count > 2)
        // It only ever went up, and reached the end only once the last rows were written.
        #expect(zip(reported, reported.dropFirst()).allSatisfy { $0.done <= $1.done })
        #expect(reported.dropLast().allSatisfy { $0.done < $0.total })
        // The old generation stayed readable through the swap, for whoever had it open.
        #expect(try oldReader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sidebar_episodes") } == rows["sidebar_episodes"]?.count)
        // And the previous build's instance follows the link on its next use.
        try before.reopenIfSwapped()
        #expect(before.generation == after.generation)
    }

    @Test("a replay that meets payloads it cannot decode names the earliest, and the live model stays as it was")
    func undecodablePayloads() throws {
        let (studio, readModel) = try builtLibrary(episodes: 3)
        let rows = try readModel.dump()
        // One commit of 3,000 creations, enough for the shards to fold on every core; three of the
        // payloads are not what their type says.
        let facts = EpisodeFacts(podcast: try #require(studio.domain.podcasts[Scene.show]), otherNumbers: [:])
        var events: [ProposedEvent] = []
        for n in 10..<3_010 {
            guard case .episode(_, _, let create) = Scene.createEpisode(n, "Episode \(n)", number: n) else { return }
            events += try EpisodeDecider.decide(create, .initial, facts).map(ProposedEvent.init(domain:))
        }
        for index in [2_400, 1_500, 2_900] {
            events[index] = ProposedEvent(stream: events[index].stream, type: events[index].type, json: #"{"title":7}"#)
        }
        let base = studio.log.head.rawValue
        try studio.log.write { try $0.append(Commit(events: events, commandID: CommandID(UUID()), actor: "test", timestamp: Scene.monday)) }

        #expect {
            try readModel.rebuild(log: studio.log)
        } throws: { error in
            guard case .unreadableEvent(let position, _)? = error as? ProjectionError else { return false }
            return position == base + 1_501
        }
        #expect(try readModel.dump() == rows)
    }

    @Test("an explicit rebuild of one projector, or of all, gives the same rows")
    func explicitRebuild() throws {
        let (studio, readModel) = try builtLibrary()
        let rows = try readModel.dump()
        try readModel.rebuild(["episode-detail"], log: studio.log)
        #expect(try readModel.dump() == rows)
        try readModel.rebuild(log: studio.log)
        #expect(try readModel.dump() == rows)
        #expect(throws: ProjectionError.unknownProjector("nope")) { try readModel.rebuild(["nope"], log: studio.log) }
        // A name given twice is still one projector: the others keep their rows, in the files they were.
        let others = ["episode-detail", "search"].map(readModel.file(of:))
        try readModel.rebuild(["sidebar", "sidebar"], log: studio.log)
        #expect(try readModel.dump() == rows)
        #expect(["episode-detail", "search"].map(readModel.file(of:)) == others)
        // What the rebuilds replaced went with them: the live generation's files alone remain.
        let live = ([readModel.generation] + readModel.projectors.compactMap { readModel.file(of: $0.name) }).map { ($0 as NSString).lastPathComponent }
        #expect(try FileManager.default.contentsOfDirectory(atPath: studio.path + "/read").filter { $0.hasSuffix(".sqlite") }.sorted() == live.sorted())
    }

    @Test("a read model of a build that kept every projector in one file is replayed into a file each, quietly")
    func singleFileUpgrade() throws {
        // Given the live read model as an older build left it: one file, its checkpoints in its own
        let (studio, current) = try builtLibrary(episodes: 5)
        let rows = try current.dump()
        let stored = try current.database.read(Checkpoints.all)
        // projections table, written in WAL mode and still in the WAL (this connection stays open)
        let old = studio.path + "/read/000042.sqlite"
        let legacy = try DatabaseQueue(path: old)
        try legacy.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        try legacy.write { db in
            try db.execute(sql: try Checkpoints.ddl())
            for (name, row) in stored {
                try Checkpoints.set(name, version: row.schemaVersion, checkpoint: row.checkpoint, identity: row.identity, in: db, schema: "main")
            }
        }
        _ = consume current
        try FileManager.default.removeItem(atPath: studio.path + "/read.sqlite")
        try FileManager.default.createSymbolicLink(atPath: studio.path + "/read.sqlite", withDestinationPath: "read/000042.sqlite")
        // Its checkpoints still say how far the log was acknowledged.
        #expect(ReadModel.furthestCheckpoint(in: studio.path) == studio.log.head)

        // When the library is opened
        var notices: [ReadModelNotice] = []
        let upgraded = try ReadModel(library: studio.path, log: studio.log, notice: { notices.append($0) })

        // Then it is replayed into a new generation, without a word, and the old file goes
        #expect(notices.isEmpty, "\(notices)")
        #expect(upgraded.generation != old)
        #expect(upgraded.projectors.allSatisfy { upgraded.file(of: $0.name) != nil })
        #expect(try upgraded.dump() == rows)
        #expect(!FileManager.default.fileExists(atPath: old))
        try legacy.close()
    }

    @Test(
        "a rebuild killed with SIGKILL leaves a working read model, and the next rebuild finishes",
        arguments: [("explicit", 2), ("explicit", 6), ("at-open", 3)])
    func killedRebuild(mode: String, afterBatches: Int) throws {
        let (studio, readModel) = try builtLibrary(episodes: 150)
        let rows = try readModel.dump()
        let live = readModel.generation
        let liveSidebar = try #require(readModel.file(of: "sidebar"))
        if mode == "at-open" {
            // As if the read model had been built by an older build: the child rebuilds it when it opens.
            try readModel.database.write { try $0.execute(sql: "UPDATE sidebar.projections SET schema_version = 0 WHERE name = 'sidebar'") }
        }

        let child = Process()
        child.executableURL = URL(fileURLWithPath: RebuilderProcess.path)
        child.arguments = [studio.path, "20", "30", mode]
        let out = Pipe()
        child.standardOutput = out
        try child.run()
        var seen = ""
        while seen.components(separatedBy: "progress").count - 1 < afterBatches {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(!seen.contains("done"))
        // It had begun a new file beside the live ones.
        #expect(try FileManager.default.contentsOfDirectory(atPath: studio.path + "/read").contains("000006-sidebar.sqlite"))

        // The live generation is untouched and readable.
        let reader = try DatabaseQueue(path: liveSidebar)
        #expect(try reader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sidebar_episodes") } == rows["sidebar_episodes"]?.count)
        // The next open restarts a rebuild at open; an explicit one is run again. Both end with the same rows.
        let reopened = try studio.openReadModel()
        if mode == "explicit" {
            #expect(reopened.generation == live)
            #expect(try reopened.dump() == rows)
            try reopened.rebuild(log: studio.log)
        }
        #expect(reopened.generation != live)
        #expect(try reopened.dump() == rows)
        #expect(try reopened.status(head: studio.log.head).allSatisfy { $0.isCurrent })
        // The killed build's file is gone; the first generation stays as long as the first instance,
        // which still reads it, lives, and goes with the next writer after that.
        let generations = { try FileManager.default.contentsOfDirectory(atPath: studio.path + "/read").filter { $0.hasSuffix(".sqlite") }.sorted() }
        func files(_ readModel: ReadModel) -> Set<String> {
            Set(([readModel.generation] + readModel.projectors.compactMap { readModel.file(of: $0.name) }).map { ($0 as NSString).lastPathComponent })
        }
        #expect(try generations() == files(readModel).union(files(reopened)).sorted())
        #expect(!files(reopened).contains("000006-sidebar.sqlite"))
        withExtendedLifetime(readModel) {}
        try studio.log.write { _ in try reopened.catchUp(with: studio.log) }
        _ = consume readModel
        try studio.log.write { _ in reopened.removeLeftovers() }
        #expect(try generations() == files(reopened).sorted())
    }
}

/// The child-process helper built beside the test bundle.
enum RebuilderProcess {
    static var path: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("projection-test-rebuilder")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url.path }
        }
        return FileManager.default.currentDirectoryPath + "/.build/debug/projection-test-rebuilder"
    }
}
