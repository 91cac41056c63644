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

    @Test("commits appended unsynced share one fsync of their segment, and a power cut after it keeps them all")
    func oneFsyncForMany() throws {
        // Given a library on a simulated disk
        let library = TemporaryLibrary(inMemory: true)
        try FileManager.default.createDirectory(atPath: library.path, withIntermediateDirectories: true)
        let disk = SimulatedDisk(root: library.path, seed: 1)
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

    @Test("a writer section that ends with commits unsynced syncs them before it lets the lock go")
    func sectionEndSyncs() throws {
        let library = TemporaryLibrary(inMemory: true)
        try FileManager.default.createDirectory(atPath: library.path, withIntermediateDirectories: true)
        let disk = SimulatedDisk(root: library.path, seed: 2)
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
}
