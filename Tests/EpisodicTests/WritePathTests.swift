import CoreValues
import Episodic
@testable import EventLog
import Foundation
import GRDB
import PodcastDomain
import Projections
import Testing

/// Submit, undo and redo take one write path, with the same handling of what goes wrong.
@Suite("One write path")
struct WritePathTests {
    /// Runs `body` while SQLite refuses every change to the sidebar's podcasts: the log takes the
    /// events, the read model cannot project them. Then the read model takes writes again and is caught up.
    static func refusingSidebarWrites<T>(_ library: Library, _ body: () throws -> T) throws -> T {
        let events = ["insert", "update", "delete"]
        try library.currentReadModel().database.write { db in
            for event in events {
                try db.execute(sql: """
                    CREATE TRIGGER sidebar.refuse_\(event) BEFORE \(event.uppercased()) ON sidebar_podcasts
                    BEGIN SELECT RAISE(ABORT, 'the test refuses this write'); END
                    """)
            }
        }
        let result = try body()
        try library.readModel().database.write { db in
            for event in events { try db.execute(sql: "DROP TRIGGER sidebar.refuse_\(event)") }
        }
        return result
    }

    @Test("a batch runs in groups, each acknowledged once its commits are in the log, with the lock let go between them")
    func groups() throws {
        // Given a podcast, and a batch of 25 creations and retitles
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let ids = (1...10).map { _ in EpisodeID(UUID()) }
        let batch = ids.map { Submission(.createEpisode(in: .id(show), .create(id: $0, title: "Take one", at: studio.tick()))) }
            + (0..<15).map { Submission(.episode(.id(ids[$0 % 10]), .retitle("Take \($0 + 2)"))) }
        let path = studio.library.path

        // When it is submitted in groups of 10
        var parts: [(results: Int, logHead: UInt64, otherWriterGotIn: Bool)] = []
        let report = try studio.library.submit(batch, actor: "tester", clock: studio.tick, groupLimit: 10) { part in
            // What another process would see now: the log, and the lock free for it
            let log = try! EventLog(at: path, options: EventLog.Options(lockTimeout: .milliseconds(100)))
            let free = (try? log.withWriterLock { true }) ?? false
            parts.append((part.results.count, log.head.rawValue, free))
        }

        // Then three groups were acknowledged in turn, each once its commits were there for others
        #expect(report.results.count == 25)
        #expect(parts.map(\.results) == [10, 10, 5])
        #expect(parts.map(\.logHead) == [11, 21, 26])
        #expect(parts.allSatisfy { $0.otherWriterGotIn })
    }

    @Test("a group after another writer's commit decides on it, not on the previous group's view")
    func groupsSeeOtherWriters() throws {
        // Given a batch whose second group names a podcast by a name it takes only between the groups
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let batch = [
            Submission(.createEpisode(in: .id(show), .create(id: EpisodeID(UUID()), title: "One", at: studio.tick()))),
            Submission(.createEpisode(in: .text("Renamed"), .create(id: EpisodeID(UUID()), title: "Two", at: studio.tick()))),
        ]
        var renamed = false

        // When another writer renames the podcast once the first group is done
        let report = try studio.library.submit(batch, actor: "tester", clock: studio.tick, groupLimit: 1) { _ in
            guard !renamed else { return }
            renamed = true
            let other = try! Library(at: studio.library.path)
            _ = try! other.submit([Submission(.podcast(.id(show), .rename("Renamed")))], actor: "other").results[0].get()
        }

        // Then the second group finds the podcast by its new name
        #expect(report.results.count == 2)
        #expect(throws: Never.self) { try report.results[1].get() }
    }

    @Test("a refused command's content is never stored, though the batch wrote it ahead")
    func refusedContentIsNotStored() throws {
        // Given a batch of two transcript imports, the second into an episode that does not exist
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let episode = try studio.createEpisode(in: show, "One")
        let kept = Array("00:00:01\nAnna\nKept.\n".utf8), refused = Array("00:00:01\nAnna\nRefused.\n".utf8)
        let batch = [
            Submission.importTranscript(kept, into: .id(episode)),
            Submission.importTranscript(refused, into: .id(EpisodeID(UUID()))),
        ]

        // When it runs, going on past the refusal
        let report = try studio.library.submit(batch, actor: "tester", keepGoing: true, clock: studio.tick)

        // Then only the accepted one's content is in the blob store, and no staged file is left
        #expect((try? report.results[0].get()) != nil)
        #expect((try? report.results[1].get()) == nil)
        let blobs = BlobStore(directory: studio.library.path + "/blobs")
        #expect(blobs.contains(BlobStore.reference(for: kept)))
        #expect(!blobs.contains(BlobStore.reference(for: refused)))
        let root = try FileManager.default.contentsOfDirectory(atPath: studio.library.path + "/blobs")
        #expect(!root.contains { $0.hasPrefix(".incoming-") }, "\(root)")
    }

    @Test("a group's commits reach the log together at its end; one whose content cannot be stored fails there, those before it stand, and nothing after it is written")
    func appendedTogether() throws {
        // Given three episodes, and a batch that retitles, imports a transcript, retitles, imports a
        // second transcript and retitles, on a disk that will not rename the second's file into place
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let one = try studio.createEpisode(in: show, "One"), two = try studio.createEpisode(in: show, "Two")
        let three = try studio.createEpisode(in: show, "Three")
        let first = Array("00:00:01\nAnna\nFirst.\n".utf8), second = Array("00:00:01\nAnna\nSecond.\n".utf8)
        let batch = [
            Submission(.episode(.id(one), .retitle("One again"))),
            Submission.importTranscript(first, into: .id(two)),
            Submission(.episode(.id(three), .retitle("Three again"))),
            Submission.importTranscript(second, into: .id(one)),
            Submission(.episode(.id(two), .retitle("Two again"))),
        ]
        let head = studio.library.head

        // When it runs, going on past refusals
        let report = try FileSystemLayer.$current.withValue(RefusingBlobRename(BlobStore.reference(for: second))) {
            try studio.library.submit(batch, actor: "tester", keepGoing: true, clock: studio.tick)
        }

        // Then the three commands before it are acknowledged, at the positions the log holds them at
        #expect(report.results.count == 4)
        let done = try report.results.prefix(3).map { try $0.get() }
        var logged: [LogPosition: CommandID] = [:]
        try studio.library.readLog(LogFilter()) { logged[$0.record.position] = $0.record.commandID }
        #expect(studio.library.head.rawValue == head.rawValue + UInt64(done.map(\.events.count).reduce(0, +)))
        for outcome in done {
            let positions = try #require(outcome.positions)
            #expect((positions.lowerBound.rawValue...positions.upperBound.rawValue).allSatisfy { logged[LogPosition($0)] == outcome.commandID })
        }
        #expect(done.map { $0.positions?.lowerBound.rawValue } == [head.rawValue + 1, done[0].positions!.upperBound.rawValue + 1, done[1].positions!.upperBound.rawValue + 1])
        // The fourth failed with the disk's error, and the fifth, decided on the fourth's events, was
        // never written: the library holds the first three changes only
        guard case .failure(let failure) = report.results[3] else {
            Issue.record("the fourth command was acknowledged")
            return
        }
        #expect(failure.index == 3)
        #expect("\(failure)".contains("rename"))
        let episodes = try studio.states().episodes
        #expect(episodes[one]?.live?.title == "One again" && episodes[one]?.live?.transcript == nil)
        #expect(episodes[two]?.live?.title == "Two" && episodes[two]?.live?.transcript == BlobStore.reference(for: first))
        #expect(episodes[three]?.live?.title == "Three again")
        #expect(!BlobStore(directory: studio.library.path + "/blobs").contains(BlobStore.reference(for: second)))
        // And the read models hold what a replay of the log gives; no staged file is left
        let verification = try studio.library.verify()
        #expect(verification.readModel.isEmpty)
        let root = try FileManager.default.contentsOfDirectory(atPath: studio.library.path + "/blobs")
        #expect(!root.contains { $0.hasPrefix(".incoming-") }, "\(root)")
    }

    @Test("a read model that cannot be updated after the append: undo and redo report it as submit does, and keep the append")
    func readModelFailureAfterAppend() throws {
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let names = { try studio.library.currentReadModel().podcastNames()[show] }

        let submitted = try Self.refusingSidebarWrites(studio.library) {
            try studio.library.submit([Submission(.podcast(.id(show), .rename("Renamed")))], actor: "tester", clock: studio.tick)
        }
        let renamed = try #require(try submitted.results.first?.get())
        #expect(renamed.positions != nil)
        #expect(submitted.readModelError.map { "\($0)" }?.contains("the test refuses this write") == true)
        #expect(try names() == "Renamed")

        let undone = try Self.refusingSidebarWrites(studio.library) {
            try studio.library.undo(.command(renamed.commandID), actor: "tester", clock: studio.tick)
        }
        let undo = try #require(undone.outcome)
        #expect(undo.positions != nil)
        #expect(undone.readModelError.map { "\($0)" }?.contains("the test refuses this write") == true)
        #expect(try names() == "Show")

        let redone = try Self.refusingSidebarWrites(studio.library) {
            try studio.library.undo(.command(undo.commandID), actor: "tester", clock: studio.tick)
        }
        #expect(redone.outcome?.positions != nil)
        #expect(redone.readModelError.map { "\($0)" }?.contains("the test refuses this write") == true)
        #expect(try names() == "Renamed")
        #expect(try studio.states().podcasts[show]?.live?.name == "Renamed")
    }

    @Test("each group is projected from the states it decided on, which give what a replay of the log gives")
    func projectedFromDecidedStates() throws {
        // Given a podcast, and a batch in groups of three that changes its episodes again and again, each
        // change in a later group than the one before it on the same episode, with a refusal among them
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let (a, b) = (EpisodeID(UUID()), EpisodeID(UUID()))
        let batch = [
            Submission(.createEpisode(in: .id(show), .create(id: a, title: "A one", at: studio.tick()))),
            Submission(.createEpisode(in: .id(show), .create(id: b, title: "B one", at: studio.tick()))),
            Submission(.episode(.id(a), .describe("About A"))),
            Submission(.podcast(.id(show), .describe("About the show"))),
            Submission(.episode(.id(b), .renumber(7))),
            Submission(.episode(.id(a), .retitle("A two"))),
            Submission(.episode(.id(b), .delete)),
            Submission(.podcast(.id(show), .rename("Show, renamed"))),
            Submission(.episode(.id(b), .retitle("B two"))),
            Submission(.episode(.id(a), .renumber(9))),
        ]

        // When it is submitted going on past refusals
        let report = try studio.library.submit(batch, actor: "tester", keepGoing: true, clock: studio.tick, groupLimit: 3)

        // Then only the retitle of the deleted episode was refused, and each row holds every group's change
        #expect(report.results.map { (try? $0.get()) == nil } == [false, false, false, false, false, false, false, false, true, false])
        let model = try studio.library.currentReadModel()
        let detail = try #require(try model.episode(a))
        #expect((detail.title, detail.description, detail.number) == ("A two", "About A", 9))
        #expect(try model.episode(b) == nil)
        #expect(try model.podcastNames()[show] == "Show, renamed")
        // and the read models are what a replay of the log makes
        let verification = try studio.library.verify()
        #expect(verification.readModel.isEmpty)
        #expect(verification.readModelProblems.isEmpty)
    }

    @Test("a command whose commit cannot be synced is not acknowledged, and no read model ever records it")
    func failedSync() throws {
        // Given a podcast
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let head = studio.library.head

        // When its rename is submitted on a disk whose syncs of log segments fail
        #expect(throws: EventLogError.self) {
            try FileSystemLayer.$current.withValue(FailingSegmentSyncs()) {
                try studio.library.submit([Submission(.podcast(.id(show), .rename("Renamed")))], actor: "tester", clock: studio.tick)
            }
        }

        // Then the commit was taken back, and the read models never recorded it: none stands past the
        // log's head (the projection waits for the sync before it commits), and they still say "Show"
        #expect(studio.library.head == head)
        #expect(ReadModel.furthestCheckpoint(in: studio.library.path) == head)
        #expect(try studio.library.currentReadModel().podcastNames()[show] == "Show")
        #expect(try studio.library.verify().readModel.isEmpty)
    }

    @Test("a damaged last commit that only the read models show was acknowledged is never cut")
    func readModelsWitnessTheTail() throws {
        // Given a library whose last commit, a rename the read models have projected, is damaged on
        // disk, and whose stream index is gone, so that only the read models show it was acknowledged
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        _ = try studio.must(Submission(.podcast(.id(show), .rename("Renamed"))))
        let acknowledged = studio.library.head
        let log = studio.library.path + "/log"
        let segment = log + "/" + (try FileManager.default.contentsOfDirectory(atPath: log).filter { Segment.number(inName: $0) != nil }.max()!)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment)))
        bytes[bytes.count - 1] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: segment))
        try FileManager.default.removeItem(atPath: studio.library.path + "/index")
        try FileManager.default.removeItem(atPath: studio.library.path + "/HEAD")

        // When a reader opens the library first, then another command is submitted
        let reader = try Library(at: studio.library.path)
        #expect(try reader.podcasts().map(\.name) == ["Show"], "answered from the commits the log can read")
        let reopened = try Library(at: studio.library.path)
        let error = #expect(throws: EventLogError.self) {
            try reopened.submit([Submission(.podcast(.id(show), .describe("About")))], actor: "tester", clock: studio.tick)
        }

        // Then the reader left the read models as they were, and the writer refuses to cut the commit,
        // saying what showed it was acknowledged; the log is as it was
        #expect("\(String(describing: error))".contains("the read models show that position \(acknowledged.rawValue) was acknowledged"))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: segment))) == bytes)
    }

    @Test("a read model that can be updated: undo reports no error")
    func noReadModelError() throws {
        let studio = try FacadeLibrary()
        let show = try studio.createPodcast("Show")
        let renamed = try studio.must(Submission(.podcast(.id(show), .rename("Renamed"))))[0]
        let undone = try studio.library.undo(.command(renamed.commandID), actor: "tester", clock: studio.tick)
        #expect(undone.readModelError == nil)
        #expect(try studio.library.currentReadModel().podcastNames()[show] == "Show")
    }
}

/// The system's calls, except that syncing a log segment fails with EIO, as a disk that lost the writes
/// does: the log then takes back the commits the sync covered.
private struct FailingSegmentSyncs: FileSystemCalls {
    private let system = SystemCalls()

    func fsync(_ descriptor: Int32) -> Int32 {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/fd/\(descriptor)", &target, target.count - 1)
        let path = length > 0 ? String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        guard Segment.number(inName: (path as NSString).lastPathComponent) == nil else {
            errno = EIO
            return -1
        }
        return system.fsync(descriptor)
    }

    func openat(_ directory: Int32, _ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { system.openat(directory, path, flags, mode) }
    func pwrite(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: off_t) -> Int { system.pwrite(descriptor, bytes, offset) }
    func ftruncate(_ descriptor: Int32, _ size: off_t) -> Int32 { system.ftruncate(descriptor, size) }
    func mkdirat(_ directory: Int32, _ path: String, _ mode: mode_t) -> Int32 { system.mkdirat(directory, path, mode) }
    func renameat(_ fromDirectory: Int32, _ from: String, _ toDirectory: Int32, _ to: String) -> Int32 {
        system.renameat(fromDirectory, from, toDirectory, to)
    }
    func unlinkat(_ directory: Int32, _ path: String, _ flags: Int32) -> Int32 { system.unlinkat(directory, path, flags) }
}

/// The system's calls, except that renaming a staged file to the name of one blob fails with EIO.
private struct RefusingBlobRename: FileSystemCalls {
    private let system = SystemCalls()
    private let name: String

    init(_ ref: BlobRef) { name = String(ref.sha256.dropFirst(2)) }

    func renameat(_ fromDirectory: Int32, _ from: String, _ toDirectory: Int32, _ to: String) -> Int32 {
        guard to != name else {
            errno = EIO
            return -1
        }
        return system.renameat(fromDirectory, from, toDirectory, to)
    }

    func fsync(_ descriptor: Int32) -> Int32 { system.fsync(descriptor) }
    func openat(_ directory: Int32, _ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { system.openat(directory, path, flags, mode) }
    func pwrite(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: off_t) -> Int { system.pwrite(descriptor, bytes, offset) }
    func ftruncate(_ descriptor: Int32, _ size: off_t) -> Int32 { system.ftruncate(descriptor, size) }
    func mkdirat(_ directory: Int32, _ path: String, _ mode: mode_t) -> Int32 { system.mkdirat(directory, path, mode) }
    func unlinkat(_ directory: Int32, _ path: String, _ flags: Int32) -> Int32 { system.unlinkat(directory, path, flags) }
}
