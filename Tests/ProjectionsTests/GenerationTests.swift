import DomainTestSupport
import EventLog
import Foundation
import GRDB
import Testing

@testable import Projections

/// The files under `read/`: generations kept while someone reads them, leftovers removed, set-aside
/// files kept, and nothing written through a symbolic link.
@Suite("Read model generations")
struct GenerationTests {
    /// A library of a show and `episodes` episodes, its read model current.
    func builtLibrary(episodes: Int = 5) throws -> (StudioLibrary, ReadModel) {
        let studio = try StudioLibrary()
        try studio.must(Scene.createShow())
        for n in 1...episodes { try studio.must(Scene.createEpisode(n, "Episode \(n)")) }
        let readModel = try studio.openReadModel()
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        return (studio, readModel)
    }

    func files(_ studio: StudioLibrary) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: studio.path + "/read").sorted()
    }

    @Test("each checkpoint records the identity of the event it stands on")
    func identities() throws {
        let (studio, readModel) = try builtLibrary()
        let stored = try readModel.database.read(Checkpoints.all)
        let identity = try #require(try studio.log.identity(at: studio.log.head))
        #expect(stored.values.allSatisfy { $0.checkpoint == studio.log.head.rawValue && $0.identity == identity })
    }

    @Test("the furthest checkpoint is read without building anything: nil when there is no read model")
    func furthestCheckpoint() throws {
        let (studio, readModel) = try builtLibrary()
        #expect(ReadModel.furthestCheckpoint(in: studio.path) == studio.log.head)
        try FileManager.default.removeItem(atPath: studio.path + "/read.sqlite")
        #expect(ReadModel.furthestCheckpoint(in: studio.path) == nil)
        #expect(!FileManager.default.fileExists(atPath: studio.path + "/read.sqlite"))
        withExtendedLifetime(readModel) {}
    }

    @Test("a generation a reader has claimed outlives the rebuild that replaced it, until the reader lets go")
    func claimedGenerationStays() throws {
        let (studio, reader) = try builtLibrary()
        let rows = try reader.dump()
        let old = reader.generation
        let rebuilder = try studio.openReadModel()
        try rebuilder.rebuild(log: studio.log)
        try rebuilder.rebuild(log: studio.log)
        #expect(rebuilder.generation != old)
        // The reader's file, its WAL and its index are all still there, and it reads them as before.
        #expect(FileManager.default.fileExists(atPath: old) && FileManager.default.fileExists(atPath: old + "-wal"))
        #expect(try reader.dump() == rows)
        // Only the one it holds is kept: the generation between went with the second swap.
        #expect(try files(studio).filter { $0.hasSuffix(".sqlite") } == [(old as NSString).lastPathComponent, (rebuilder.generation as NSString).lastPathComponent])

        _ = consume reader
        try studio.log.write { _ in rebuilder.removeLeftovers() }
        #expect(try files(studio).filter { $0.hasSuffix(".sqlite") } == [(rebuilder.generation as NSString).lastPathComponent])
    }

    @Test("the next writer removes what crashes left (generations, companions, half-made links) and keeps what was set aside")
    func leftovers() throws {
        let (studio, readModel) = try builtLibrary()
        let folder = studio.path + "/read"
        for name in ["000007.sqlite", "000007.sqlite-wal", "000008.sqlite-shm", "000009.sqlite-journal", "000003.damaged.sqlite", "notes.txt"] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8)))
        }
        try FileManager.default.createSymbolicLink(atPath: studio.path + "/read.sqlite.new-k3j2", withDestinationPath: "read/000007.sqlite")
        let live = (readModel.generation as NSString).lastPathComponent

        try studio.log.write { _ in readModel.removeLeftovers() }
        let remaining = try files(studio)
        #expect(remaining == ["000003.damaged.sqlite", live, live + "-shm", live + "-wal", "notes.txt"].sorted(), "\(remaining)")
        #expect(!FileManager.default.fileExists(atPath: studio.path + "/read.sqlite.new-k3j2"))
        // A new generation is numbered after everything that ever was, set-aside files included.
        let claim = try ReadModel.newGeneration(in: studio.path)
        #expect(claim.path == folder + "/000004.sqlite")
        ReadModel.discard(claim.path)
    }

    @Test("a rebuild that fails removes its own generation's files")
    func failedRebuildCleansUp() throws {
        let (studio, readModel) = try builtLibrary()
        let before = try files(studio)
        // A payload that is not what its type says: the replay stops there.
        try studio.log.write {
            try $0.append(Commit(
                events: [ProposedEvent(stream: StreamID(rawValue: "episode-\(Scene.episode(1))")!, type: "EpisodeRetitled", json: #"{"title":7}"#)],
                commandID: CommandID(UUID()), actor: "test", timestamp: Scene.monday))
        }
        #expect(throws: ProjectionError.self) { try readModel.rebuild(log: studio.log) }
        #expect(try files(studio) == before)
    }

    @Test("a read model made by a build before event identities upgrades itself by a rebuild, and says so")
    func olderCheckpointsTable() throws {
        let (studio, readModel) = try builtLibrary()
        let rows = try readModel.dump()
        try readModel.database.write { try $0.execute(sql: "ALTER TABLE projections DROP COLUMN event_identity") }
        _ = consume readModel

        var notices: [ReadModelNotice] = []
        let upgraded = try ReadModel(library: studio.path, log: studio.log, notice: { notices.append($0) })
        #expect(try upgraded.dump() == rows)
        #expect(try upgraded.status(head: studio.log.head).allSatisfy(\.isCurrent))
        #expect(try upgraded.database.read(Checkpoints.all).values.allSatisfy { $0.identity != nil })
        guard case .rebuilt(let reason, nil)? = notices.first else { Issue.record("\(notices)"); return }
        #expect(reason.contains("older build"))
    }

    @Test("read.sqlite pointing outside read/, or at a link, is never followed: the victim keeps its bytes")
    func linkElsewhereIsNotFollowed() throws {
        let (studio, readModel) = try builtLibrary()
        let rows = try readModel.dump()
        let victim = studio.folder + "/victim.sqlite"
        // A real read model, so that SQLite would gladly have written into it.
        try FileManager.default.copyItem(atPath: readModel.generation, toPath: victim)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: victim))
        _ = consume readModel

        for target in [victim, "read/000001.sqlite"] {
            try FileManager.default.removeItem(atPath: studio.path + "/read.sqlite")
            if target != victim {
                // The generation itself a link to the victim.
                let generation = studio.path + "/read/000001.sqlite"
                try? FileManager.default.removeItem(atPath: generation)
                try FileManager.default.createSymbolicLink(atPath: generation, withDestinationPath: victim)
            }
            try FileManager.default.createSymbolicLink(atPath: studio.path + "/read.sqlite", withDestinationPath: target)
            var notices: [ReadModelNotice] = []
            let reopened = try ReadModel(library: studio.path, log: studio.log, notice: { notices.append($0) })
            #expect(try reopened.dump() == rows)
            try studio.log.write { _ in try reopened.catchUp(with: studio.log) }
            #expect(!reopened.generation.hasPrefix(studio.folder + "/victim"))
            #expect(notices.count == 1, "\(notices)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: victim + "-wal"))
    }

    @Test("links planted where a new generation's WAL, index or journal would be are never followed, and are removed")
    func plantedCompanions() throws {
        let (studio, readModel) = try builtLibrary()
        let victim = studio.folder + "/victim.txt"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
        let planted = ["-wal", "-shm", "-journal"].map { studio.path + "/read/000002.sqlite" + $0 }
        for path in planted { try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim) }
        try readModel.rebuild(log: studio.log)
        // The number they squat is skipped; they go with the old generations.
        #expect(readModel.generation.hasSuffix("000003.sqlite"))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        #expect(planted.allSatisfy { (try? FileManager.default.destinationOfSymbolicLink(atPath: $0)) == nil })
        let wal = try FileManager.default.attributesOfItem(atPath: readModel.generation + "-wal")
        #expect(wal[.type] as? FileAttributeType == .typeRegular)
    }

    @Test("a read folder that is a symbolic link is refused for writing")
    func readFolderLink() throws {
        let (studio, readModel) = try builtLibrary()
        let elsewhere = studio.folder + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        try FileManager.default.moveItem(atPath: studio.path + "/read", toPath: studio.folder + "/read-moved")
        try FileManager.default.createSymbolicLink(atPath: studio.path + "/read", withDestinationPath: elsewhere)
        #expect {
            try readModel.rebuild(log: studio.log)
        } throws: { error in
            guard case .libraryNotWritable(_, let reason)? = error as? EventLogError else { return false }
            return reason.contains("not a folder")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }
}
