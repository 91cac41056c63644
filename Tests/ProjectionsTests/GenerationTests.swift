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
    func builtLibrary(episodes: Int = 5) throws -> (ShellWrittenLibrary, ReadModel) {
        let studio = try ShellWrittenLibrary()
        try studio.must(Scene.createShow())
        for n in 1...episodes { try studio.must(Scene.createEpisode(n, "Episode \(n)")) }
        let readModel = try studio.openReadModel()
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        return (studio, readModel)
    }

    func files(_ studio: ShellWrittenLibrary) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: studio.path + "/read").sorted()
    }

    /// The database files of `read/`, companions left out.
    func databaseFiles(_ studio: ShellWrittenLibrary) throws -> [String] {
        try files(studio).filter { $0.hasSuffix(".sqlite") }
    }

    /// The names of the files of `readModel`'s generation: its manifest and its projectors' files.
    func generationFiles(_ readModel: ReadModel) -> [String] {
        ([readModel.generation] + readModel.projectors.compactMap { readModel.file(of: $0.name) }).map { ($0 as NSString).lastPathComponent }
    }

    @Test("each checkpoint records the identity of the event it stands on")
    func identities() throws {
        let (studio, readModel) = try builtLibrary()
        let stored = try readModel.database.read(Checkpoints.all)
        let identity = try #require(try studio.log.identity(at: studio.log.head))
        #expect(stored.values.allSatisfy { $0.checkpoint == studio.log.head.rawValue && $0.identity == identity })
    }

    @Test("one connection serves an opened read model: its checks at open, its catching up and its queries")
    func oneConnection() throws {
        // Given a library whose read models are behind its log by one command
        let (studio, _) = try builtLibrary()
        try studio.must(Scene.createEpisode(6, "Episode 6"))
        let connections = ReadModelCheckTests.Connections()
        let projectors = Projectors.standard(blobs: BlobReader(studio.log.blobs))
            .map { ReadModelCheckTests.Noting(base: $0, connections: connections) }

        // When a process opens them, catches them up and queries them
        let readModel = try studio.openReadModel(projectors)
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        let summaries = try readModel.podcasts()

        // Then one connection did all of it (every connection prepares each projector once): opening a
        // connection attaches every projector's file, which is most of what opening a library costs
        #expect(summaries.first?.episodeCount == 6)
        #expect(connections.take().count == projectors.count)
    }

    @Test("closing leaves the projectors' transactions in their WALs, unsynced and not checkpointed, and the next reader sees them")
    func walKeptOnClose() throws {
        // Given a library whose read models were caught up and closed
        let (studio, first) = try builtLibrary()
        let files = first.projectors.compactMap { first.file(of: $0.name) }
        try studio.must(Scene.createEpisode(6, "Episode 6"))
        try studio.log.write { _ in try first.catchUp(with: studio.log) }

        // When the process lets go of them
        _ = consume first

        // Then each projector's last transaction is still in its WAL (a checkpoint on close would have
        // synced it into the file and emptied the WAL), and a new reader reads it from there
        for file in files {
            let wal = try FileManager.default.attributesOfItem(atPath: file + "-wal")[.size] as? Int ?? 0
            #expect(wal > 0, "\(file)")
        }
        #expect(try studio.openReadModel().podcasts().first?.episodeCount == 6)
    }

    @Test("a manifest is read as the immutable file it is: opening the read models, for writing or reading, never makes its WAL or index")
    func manifestReadAsImmutable() throws {
        // Given a library whose manifest has lost its WAL and shared-memory index
        let (studio, first) = try builtLibrary()
        let manifest = first.generation
        _ = consume first
        for companion in ["-wal", "-shm"] { try FileManager.default.removeItem(atPath: manifest + companion) }

        // When its read models are opened for writing and caught up, then opened for reading
        try studio.must(Scene.createEpisode(6, "Episode 6"))
        let writer = try studio.openReadModel()
        try studio.log.write { _ in try writer.catchUp(with: studio.log) }
        let reader = try ReadModel(library: studio.path, log: studio.log, readOnly: true)

        // Then both read it (SQLite opening it as a database in WAL mode would have made both files)
        #expect(writer.generation == manifest && reader.generation == manifest)
        #expect(try reader.podcasts().first?.episodeCount == 6)
        for companion in ["-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: manifest + companion), "\(companion)") }
    }

    @Test("a library whose path SQLite would read as a URI's query, fragment or escape opens, for writing and for reading")
    func pathEscapedInURI() throws {
        // Given a library in a folder whose name holds `?`, `#`, `%41`, a space and letters beyond ASCII
        let studio = try ShellWrittenLibrary(name: "show ?mode=ro#x %41 été")
        try studio.must(Scene.createShow())
        try studio.must(Scene.createEpisode(1, "Episode 1"))

        // When its read models are made, then opened for reading
        let writer = try studio.openReadModel()
        try studio.log.write { _ in try writer.catchUp(with: studio.log) }
        let reader = try ReadModel(library: studio.path, log: studio.log, readOnly: true)

        // Then both are the library's own files, and nothing was made beside the library's folder
        #expect(reader.generation.hasPrefix(studio.path + "/read/"))
        #expect(try reader.podcasts().first?.episodeCount == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: studio.folder) == [(studio.path as NSString).lastPathComponent])
    }

    @Test("a WAL written by one process after another is folded in and emptied once it passes its limit, never left to grow")
    func walBounded() throws {
        let (studio, _) = try builtLibrary()
        var largest = 0, folded = 0, previous: [String: Int] = [:]
        for n in 1...40 {
            // Given a command of its own, as a process of its own: a read model opened, caught up, closed
            let words = (0..<2_000).map { "word\(($0 * 7_919 + n * 104_729) % 9_000)" }.joined(separator: " ")
            try studio.must(Scene.importTranscript(n % 5 + 1, "00:00:01\nHost\n\(words).\n"))
            let readModel = try studio.openReadModel()
            try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
            let files = readModel.projectors.compactMap { readModel.file(of: $0.name) }
            _ = consume readModel

            // Then no WAL is ever larger than the limit once its writer is done, and the search index's
            // grew past it again and again (it was folded in, and started over)
            for file in files {
                let size = try FileManager.default.attributesOfItem(atPath: file + "-wal")[.size] as? Int ?? 0
                #expect(size <= ReadModel.walLimit, "\(file) after command \(n)")
                if size < previous[file, default: 0] { folded += 1 }
                previous[file] = size
                largest = max(largest, size)
            }
        }
        #expect(folded >= 2 && largest > ReadModel.walLimit / 2, "folded \(folded), largest \(largest)")
        #expect(try studio.openReadModel().podcasts().first?.episodeCount == 5)
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
        let old = generationFiles(reader)
        let rebuilder = try studio.openReadModel()
        try rebuilder.rebuild(log: studio.log)
        try rebuilder.rebuild(log: studio.log)
        #expect(rebuilder.generation != reader.generation)
        // The reader's files, their WALs and their indexes are all still there, and it reads them as before.
        for name in old { #expect(FileManager.default.fileExists(atPath: studio.path + "/read/" + name + "-wal"), "\(name)") }
        #expect(try reader.dump() == rows)
        // Only the ones it holds are kept: the generation between went with the second swap.
        #expect(try databaseFiles(studio) == (old + generationFiles(rebuilder)).sorted())

        _ = consume reader
        try studio.log.write { _ in rebuilder.removeLeftovers() }
        #expect(try databaseFiles(studio) == generationFiles(rebuilder).sorted())
    }

    @Test("rebuilding one projector makes a file for it alone: the others' files stay the same files, byte for byte")
    func oneProjectorsRebuild() throws {
        // Given a library whose search file holds a row no replay writes, every WAL written back
        let (studio, readModel) = try builtLibrary()
        try readModel.database.write { try $0.execute(sql: "INSERT INTO search_podcasts (id, name) VALUES ('marker', 'left alone')") }
        try readModel.database.writeWithoutTransaction { db in
            for schema in ["sidebar", "episode_detail", "search"] { try db.execute(sql: "PRAGMA \(schema).wal_checkpoint(TRUNCATE)") }
        }
        let others = ["episode-detail", "search"]
        let files = try others.map { try #require(readModel.file(of: $0)) }
        func identities() throws -> [String] {
            try files.map { path in
                let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
                return "\(inode ?? -1) " + BlobStore.reference(for: Array(try Data(contentsOf: URL(fileURLWithPath: path)))).sha256
            }
        }
        let before = try identities()
        let sidebar = readModel.file(of: "sidebar")

        // When the sidebar alone is rebuilt
        try readModel.rebuild(["sidebar"], log: studio.log)

        // Then it has a new file, and the new generation names the others' files as they were: the same
        // files, the same bytes, the marker still there
        #expect(readModel.file(of: "sidebar") != sidebar)
        #expect(others.map(readModel.file(of:)) == files)
        #expect(try identities() == before)
        #expect(try readModel.database.read { try String.fetchOne($0, sql: "SELECT name FROM search_podcasts WHERE id = 'marker'") } == "left alone")
        #expect(try readModel.episodes(EpisodeQuery(podcast: Scene.show)).count == 5)
    }

    @Test("the next writer removes what crashes left (manifests, projectors' files, companions, half-made links) and keeps what was set aside")
    func leftovers() throws {
        let (studio, readModel) = try builtLibrary()
        let folder = studio.path + "/read"
        let live = try files(studio)
        let made = [
            "000007.sqlite", "000007.sqlite-wal", "000008.sqlite-shm", "000009.sqlite-journal", "000010-search.sqlite",
            "000010-search.sqlite-wal", "000011-sidebar.sqlite-shm", "000003.damaged.sqlite", "000012-search.damaged.sqlite", "notes.txt",
        ]
        for name in made { #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8))) }
        try FileManager.default.createSymbolicLink(atPath: studio.path + "/read.sqlite.new-k3j2", withDestinationPath: "read/000007.sqlite")

        try studio.log.write { _ in readModel.removeLeftovers() }
        let remaining = try files(studio)
        #expect(remaining == (live + ["000003.damaged.sqlite", "000012-search.damaged.sqlite", "notes.txt"]).sorted(), "\(remaining)")
        #expect(!FileManager.default.fileExists(atPath: studio.path + "/read.sqlite.new-k3j2"))
        // A new file is numbered after everything that ever was, set-aside files included.
        let claim = try ReadModel.newGeneration(in: studio.path)
        #expect(claim.path == folder + "/000013.sqlite")
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
        try readModel.database.write { try $0.execute(sql: "ALTER TABLE sidebar.projections DROP COLUMN event_identity") }
        _ = consume readModel

        var notices: [ReadModelNotice] = []
        let upgraded = try ReadModel(library: studio.path, log: studio.log, notice: { notices.append($0) })
        #expect(try upgraded.dump() == rows)
        #expect(try upgraded.status(head: studio.log.head).allSatisfy(\.isCurrent))
        #expect(try upgraded.database.read(Checkpoints.all).values.allSatisfy { $0.identity != nil })
        guard case .rebuilt(let reason, nil)? = notices.first else { Issue.record("\(notices)"); return }
        #expect(reason.contains("older build"))
    }

    @Test("a projector's file without its projections table is damage: set aside and rebuilt, with the same rows")
    func fileWithoutCheckpoints() throws {
        let (studio, readModel) = try builtLibrary()
        let rows = try readModel.dump()
        try readModel.database.write { try $0.execute(sql: "DROP TABLE search.projections") }
        _ = consume readModel

        var notices: [ReadModelNotice] = []
        let rebuilt = try ReadModel(library: studio.path, log: studio.log, notice: { notices.append($0) })
        #expect(try rebuilt.dump() == rows)
        #expect(try rebuilt.status(head: studio.log.head).allSatisfy(\.isCurrent))
        guard case .rebuilt(let reason, let setAside?)? = notices.first else { Issue.record("\(notices)"); return }
        #expect(reason.contains("no projections table"), "\(reason)")
        #expect(setAside.contains(".damaged."), "\(setAside)")
    }

    @Test("a read model left behind while the log's segments are compacted still stands on the log: caught up, not rebuilt")
    func checkpointOutlivesCompaction() throws {
        // Given a read model at position 6, a one-event commit's
        let studio = try ShellWrittenLibrary(EventLog.Options(segmentSizeLimit: 16 << 10, automaticCompaction: nil))
        try studio.must(Scene.createShow())
        for n in 1...5 { try studio.must(Scene.createEpisode(n, "Episode \(n)")) }
        let behind = try studio.openReadModel()
        try studio.log.write { _ in try behind.catchUp(with: studio.log) }
        let checkpoint = studio.log.head
        _ = consume behind

        // When many commits later, in segments since sealed, compaction leaves the prev of every commit
        // but each frame's first out of the lines it stores, the checkpoint's among them
        for take in 1...80 { try studio.must(.episode(Scene.episode(1 + take % 5), podcast: Scene.show, .retitle("Take \(take)"))) }
        let report = try studio.log.write { try $0.compact() }
        #expect(report.segmentsCompacted >= 1)
        var stored = ""
        try EventLog(at: studio.path).read(from: checkpoint, through: checkpoint) { stored = String(decoding: $0.line, as: UTF8.self) }
        #expect(stored.contains(#""prev":"""#), "\(stored)")

        // Then the read model still stands on the log: caught up, with no rebuild
        var notices: [ReadModelNotice] = []
        let reopened = try ReadModel(library: studio.path, log: studio.log, notice: { notices.append($0) })
        try studio.log.write { _ in try reopened.catchUp(with: studio.log) }
        #expect(notices.isEmpty, "\(notices)")
        #expect(try reopened.status(head: studio.log.head).allSatisfy(\.isCurrent))
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
            if target == victim {
                // The link elsewhere is kept aside as it was, still never followed.
                #expect(try FileManager.default.destinationOfSymbolicLink(atPath: studio.path + "/read.sqlite.damaged") == victim)
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: victim + "-wal"))
    }

    @Test("links planted where a new file's WAL, index or journal would be are never followed, and are removed")
    func plantedCompanions() throws {
        let (studio, readModel) = try builtLibrary()
        let victim = studio.folder + "/victim.txt"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
        let planted = ["000006.sqlite", "000006-sidebar.sqlite", "000006-search.sqlite"].flatMap { name in
            ["-wal", "-shm", "-journal"].map { studio.path + "/read/" + name + $0 }
        }
        for path in planted { try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim) }
        try readModel.rebuild(log: studio.log)
        // The number they squat is skipped; they go with the old generations.
        #expect(generationFiles(readModel).allSatisfy { GenerationFile.leadingNumber(of: $0)! > 6 })
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        #expect(planted.allSatisfy { (try? FileManager.default.destinationOfSymbolicLink(atPath: $0)) == nil })
        for path in [readModel.generation] + readModel.projectors.map({ readModel.file(of: $0.name)! }) {
            let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")
            #expect(wal[.type] as? FileAttributeType == .typeRegular)
        }
    }

    @Test("a read folder that is a symbolic link is set aside, never written through, and a real folder made")
    func readFolderLink() throws {
        // Given a library whose read/ is a link to a folder elsewhere
        let (studio, readModel) = try builtLibrary()
        let elsewhere = studio.folder + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: false)
        try FileManager.default.moveItem(atPath: studio.path + "/read", toPath: studio.folder + "/read-moved")
        try FileManager.default.createSymbolicLink(atPath: studio.path + "/read", withDestinationPath: elsewhere)

        // When the read models are rebuilt
        try readModel.rebuild(log: studio.log)

        // Then nothing was written where the link pointed: the link is kept aside, read/ is a folder
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: studio.path + "/read.damaged") == elsewhere)
        #expect(try FileManager.default.attributesOfItem(atPath: studio.path + "/read")[.type] as? FileAttributeType == .typeDirectory)
        #expect(readModel.generation.hasPrefix(studio.path + "/read/"))
    }
}
