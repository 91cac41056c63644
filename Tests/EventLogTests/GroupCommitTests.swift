import CoreValues
import Foundation
import Testing

@testable import EventLog

/// Group commit: a writer appends several commits and makes them durable with one fsync.
@Suite("Group commit")
struct GroupCommitTests {
    static func commit(_ i: Int) -> Commit {
        Given.commit(Given.event(StreamID(rawValue: "stream-\(i % 3)")!, "Happened", #"{"i":\#(i)}"#))
    }

    /// A library at `library.path` on a simulated disk, made there.
    static func simulated(_ library: TemporaryLibrary, seed: UInt64) throws -> SimulatedDisk {
        try FileManager.default.createDirectory(atPath: library.path, withIntermediateDirectories: true)
        return SimulatedDisk(root: library.path, seed: seed)
    }

    @Test("commits appended unsynced share one fsync of their segment, and a power cut after it keeps them all")
    func oneFsyncForMany() throws {
        // Given a library on a simulated disk
        let library = TemporaryLibrary(inMemory: true)
        let disk = try Self.simulated(library, seed: 1)
        let after = library.folder + "/after-sync"
        var segmentSyncs: (before: Int, after: Int) = (0, 0)

        try FileSystemLayer.$current.withValue(disk) {
            let log = try EventLog.create(at: library.path)
            try log.write { writer in
                // When ten commits are appended unsynced
                let synced = disk.syncs[.segmentFile, default: 0]
                for i in 1...10 { _ = try writer.appendUnsynced(Self.commit(i), blobs: [], claims: []) }
                segmentSyncs.before = disk.syncs[.segmentFile, default: 0] - synced

                // And synced once
                try writer.sync()
                segmentSyncs.after = disk.syncs[.segmentFile, default: 0] - synced
                try disk.materialize(into: after, seed: 1)
            }
        }

        // Then none of them took a sync of its own, and the one sync made all ten durable
        #expect(segmentSyncs.before == 0)
        #expect(segmentSyncs.after == 1)
        let events = try EventLog(at: after).events()
        #expect(events.map(\.json) == (1...10).map { #"{"i":\#($0)}"# })
    }

    @Test("commits appended together store their blobs first, syncing each blob folder once for all of them")
    func blobFoldersSyncedOnce() throws {
        // Given six contents, three in each of two blob folders (a folder is named by the first two
        // digits of the content's sha256)
        var contents: [[UInt8]] = []
        var folders: [String: Int] = [:]
        var i = 0
        while contents.count < 6 {
            i += 1
            let bytes = Array("content \(i)".utf8)
            let folder = String(BlobStore.reference(for: bytes).sha256.prefix(2))
            guard folders.count < 2 || folders[folder] != nil, folders[folder, default: 0] < 3 else { continue }
            folders[folder, default: 0] += 1
            contents.append(bytes)
        }
        let library = TemporaryLibrary(inMemory: true)
        let disk = try Self.simulated(library, seed: 1)
        let after = library.folder + "/after-sync"
        var shardSyncs = 0

        try FileSystemLayer.$current.withValue(disk) {
            let log = try EventLog.create(at: library.path)
            try log.write { writer in
                // When six commits, each naming one, are appended together, then synced
                let synced = disk.syncs[.blobShard, default: 0]
                let commits = contents.enumerated().map { i, bytes in
                    CommitToAppend(
                        Given.commit(Given.event(StreamID(rawValue: "stream-\(i)")!, "Stored", "{}", blobs: [BlobStore.reference(for: bytes)])),
                        blobs: [bytes], claims: [])
                }
                _ = try writer.appendUnsynced(commits)
                shardSyncs = disk.syncs[.blobShard, default: 0] - synced
                try writer.sync()
                try disk.materialize(into: after, seed: 1)
            }
        }

        // Then each folder was synced once, and after a power cut the six commits and their blobs are there
        #expect(shardSyncs == 2)
        let reopened = try EventLog(at: after)
        #expect(try reopened.events().count == 6)
        for bytes in contents { #expect(try reopened.blobs.get(BlobStore.reference(for: bytes)) == bytes) }
    }

    @Test("content that several commits appended together name is written and synced once")
    func sharedContentStoredOnce() throws {
        let library = TemporaryLibrary(inMemory: true)
        let disk = try Self.simulated(library, seed: 1)
        let content = Array("the same transcript".utf8)
        let ref = BlobStore.reference(for: content)
        var blobFileSyncs = 0
        var appended = 0
        var stored: [UInt8]?

        try FileSystemLayer.$current.withValue(disk) {
            let log = try EventLog.create(at: library.path)
            try log.write { writer in
                // When three commits naming the same content are appended together
                let synced = disk.syncs[.blobFile, default: 0]
                let commits = (1...3).map { i in
                    CommitToAppend(Given.commit(Given.event(StreamID(rawValue: "stream-\(i)")!, "Stored", "{}", blobs: [ref])), blobs: [content], claims: [])
                }
                appended = try writer.appendUnsynced(commits).count
                blobFileSyncs = disk.syncs[.blobFile, default: 0] - synced
            }
            stored = try EventLog(at: library.path).blobs.get(ref)
        }

        // Then its file was written and synced once, and every commit was appended
        #expect(appended == 3)
        #expect(stored == content)
        #expect(blobFileSyncs == 1)
    }

    @Test("a writer section that ends with commits unsynced syncs them before it lets the lock go")
    func sectionEndSyncs() throws {
        let library = TemporaryLibrary(inMemory: true)
        let disk = try Self.simulated(library, seed: 2)
        let after = library.folder + "/after-section"

        try FileSystemLayer.$current.withValue(disk) {
            let log = try EventLog.create(at: library.path)
            // When a section appends unsynced and returns without syncing
            try log.write { writer in
                for i in 1...5 { _ = try writer.appendUnsynced(Self.commit(i), blobs: [], claims: []) }
            }
            try disk.materialize(into: after, seed: 2)
        }

        // Then a power cut right after the section keeps every commit
        #expect(try EventLog(at: after).events().count == 5)
    }

    @Test("a sync that fails takes back every commit it covered; the log goes on from the last durable one")
    func failedSyncTakesBack() throws {
        // Given a library on a simulated disk with two durable commits
        let library = TemporaryLibrary(inMemory: true)
        let disk = try Self.simulated(library, seed: 3)
        try FileSystemLayer.$current.withValue(disk) {
            let log = try EventLog.create(at: library.path)
            try log.write { try $0.append(Self.commit(1), blobs: [], claims: []) }
            try log.write { try $0.append(Self.commit(2), blobs: [], claims: []) }

            // When three more are appended unsynced, and their sync fails
            let error = try log.write { writer in
                for i in 3...5 { _ = try writer.appendUnsynced(Self.commit(i), blobs: [], claims: []) }
                disk.failNextSync(of: .segmentFile)
                return #expect(throws: EventLogError.self) { try writer.sync() }
            }
            #expect(error != nil)

            // Then the writer and a new reader see the two durable commits only, and the next commit follows them
            #expect(log.head == LogPosition(2))
            #expect(try EventLog(at: library.path).events().count == 2)
            let next = try log.write { try $0.append(Self.commit(6), blobs: [], claims: []) }
            #expect(next.positions.lowerBound == LogPosition(3))
            let reopened = try EventLog(at: library.path)
            #expect(try reopened.events().map(\.json) == [1, 2, 6].map { #"{"i":\#($0)}"# })
            #expect(try reopened.verify().isClean)
        }
    }

    @Test("a sync started on a thread of its own makes the commits durable on the writer's disk once it is finished")
    func startedSyncIsDurable() throws {
        // Given a library on a simulated disk (a task-local layer, which a new thread would not see by itself)
        let library = TemporaryLibrary(inMemory: true)
        let disk = try Self.simulated(library, seed: 4)
        let after = library.folder + "/after-started-sync"
        var segmentSyncs = 0

        try FileSystemLayer.$current.withValue(disk) {
            let log = try EventLog.create(at: library.path)
            try log.write { writer in
                // When three commits are appended unsynced, and their sync is started, then finished
                let synced = disk.syncs[.segmentFile, default: 0]
                for i in 1...3 { _ = try writer.appendUnsynced(Self.commit(i), blobs: [], claims: []) }
                let sync = try writer.startSync()
                try sync.finish()
                try sync.finish()
                segmentSyncs = disk.syncs[.segmentFile, default: 0] - synced
                try disk.materialize(into: after, seed: 4)
            }
        }

        // Then the disk saw one sync of the segment, and a power cut right after it keeps the three
        #expect(segmentSyncs == 1)
        #expect(try EventLog(at: after).events().map(\.json) == (1...3).map { #"{"i":\#($0)}"# })
    }

    @Test("a started sync that fails takes back the commits it covered, and says so each time it is asked")
    func startedSyncFailure() throws {
        // Given a library on a simulated disk with one durable commit
        let library = TemporaryLibrary(inMemory: true)
        let disk = try Self.simulated(library, seed: 5)
        try FileSystemLayer.$current.withValue(disk) {
            let log = try EventLog.create(at: library.path)
            try log.write { try $0.append(Self.commit(1), blobs: [], claims: []) }

            // When two more are appended unsynced, and the sync started for them fails
            try log.write { writer in
                for i in 2...3 { _ = try writer.appendUnsynced(Self.commit(i), blobs: [], claims: []) }
                disk.failNextSync(of: .segmentFile)
                let sync = try writer.startSync()
                #expect(throws: EventLogError.self) { try sync.finish() }
                #expect(throws: EventLogError.self) { try sync.finish() }
            }

            // Then the log holds the durable commit only, and goes on from it
            #expect(log.head == LogPosition(1))
            let next = try log.write { try $0.append(Self.commit(4), blobs: [], claims: []) }
            #expect(next.positions.lowerBound == LogPosition(2))
            #expect(try EventLog(at: library.path).events().map(\.json) == [1, 4].map { #"{"i":\#($0)}"# })
        }
    }
}
