import DomainTestSupport
import EventLog
import GRDB
import Testing

@testable import Projections

/// A read model trusts the checkpoints it remembers, instead of reading them again, only where they are
/// the ones in its files.
@Suite("Remembered checkpoints")
struct KnownCheckpointsTests {
    /// What `model` remembers, if it may trust it now, and what its files hold.
    private static func remembered(_ model: ReadModel, _ log: EventLog) throws -> (known: [String: Checkpoints.Row]?, files: [String: Checkpoints.Row]) {
        (try model.opened.knownCheckpoints?.stillTrue(of: log), try model.database.read(Checkpoints.all))
    }

    /// A library holding a podcast, and a read model opened once its read models were at the log's head.
    private static func openedAtTheHead() throws -> (ShellWrittenLibrary, ReadModel) {
        let studio = try ShellWrittenLibrary()
        try studio.must(Scene.createShow())
        let first = try studio.openReadModel()
        try studio.log.withWriterLock { try first.catchUp(with: studio.log, asWriter: false) }
        return (studio, try studio.openReadModel())
    }

    @Test("checkpoints found at the log's head are trusted under a later hold while the head stays, not outside a hold")
    func atTheHead() throws {
        // Given a read model opened on a library whose read models are at the log's head
        let (studio, model) = try Self.openedAtTheHead()

        // When nothing holds the lock, then when a hold begins
        let outside = try Self.remembered(model, studio.log)
        let held = try studio.log.withWriterLock { try Self.remembered(model, studio.log) }

        // Then they are trusted under the hold only, and are the files' checkpoints
        #expect(outside.known == nil)
        #expect(held.known == held.files)
        #expect(held.files.values.allSatisfy { $0.checkpoint == studio.log.head.rawValue })
    }

    @Test("after another writer appends and projects, they are read again")
    func anotherWriter() throws {
        // Given a read model opened at the log's head
        let (studio, model) = try Self.openedAtTheHead()

        // When another writer appends an event and projects it with read models of its own
        let other = try EventLog(at: studio.path)
        let otherModel = try ReadModel(library: studio.path, log: other)
        try studio.must(Scene.createEpisode(1, "Pilot"))
        try other.write { _ in try otherModel.catchUp(with: other) }

        // Then under the next hold the remembered ones are not trusted, and catching up applies nothing
        let (known, applied) = try studio.log.write { _ in
            (try Self.remembered(model, studio.log).known, try model.catchUp(with: studio.log))
        }
        #expect(known == nil)
        #expect(applied == 0)
        #expect(try model.episodes(EpisodeQuery(podcast: Scene.show)).map(\.title) == ["Pilot"])
    }

    @Test("those written under a hold are trusted for the rest of it, and describe the files as events are appended")
    func writtenUnderAHold() throws {
        // Given a read model behind the log by two events
        let studio = try ShellWrittenLibrary()
        let model = try studio.openReadModel()
        try studio.must(Scene.createShow())
        try studio.must(Scene.createEpisode(1, "Pilot"))

        try studio.log.write { (writer: LogWriter) throws in
            // When it catches up under a hold
            #expect(try model.catchUp(with: studio.log) == 2)
            let caughtUp = try Self.remembered(model, studio.log)

            // Then it remembers what it wrote
            #expect(caughtUp.known == caughtUp.files)
            #expect(caughtUp.files.values.allSatisfy { $0.checkpoint == 2 && $0.identity == (try? studio.log.identity(at: LogPosition(2))) })

            // And when the same hold appends an event, the remembered ones still match the files, and
            // catching up applies that event
            try studio.must(Scene.on(1, .retitle("Pilot, take two")), with: writer)
            #expect(try Self.remembered(model, studio.log).known == caughtUp.files)
            #expect(try model.catchUp(with: studio.log) == 1)
            let appended = try Self.remembered(model, studio.log)
            #expect(appended.known == appended.files)
            #expect(appended.files.values.allSatisfy { $0.checkpoint == 3 })
        }
        #expect(try model.episodes(EpisodeQuery(podcast: Scene.show)).map(\.title) == ["Pilot, take two"])
    }
}
