import CoreValues
import Episodic
import EventLog
import Foundation
import PodcastDomain
import PostgresLog
import Testing
import TestSupport

/// Libraries shared through a real PostgreSQL server, each "machine" a folder of its own with its own
/// `Library`, as on a team's computers.
@Suite("A library shared on PostgreSQL", .enabled(if: try PostgresServer.isAvailable, "no PostgreSQL server could be started"))
struct SharedLibraryTests {
    let folder = TemporaryFolder("episodic-shared")
    let location: SharedLocation

    init() throws {
        location = try SharedLocation(url: PostgresServer.shared!.url, schema: PostgresServer.freshSchema())
    }

    func createPodcast(_ name: String, on library: Library, at time: Timestamp = Timestamp(rawValue: 1_795_000_000_000)!) throws -> PodcastID {
        let id = PodcastID(UUID())
        _ = try library.submit([Submission(.podcast(.id(id), .create(id: id, name: name, at: time)))], actor: "ana").results[0].get()
        return id
    }

    /// An episode created in `show`, given a two-turn transcript ("Welcome to the show.") and converted
    /// to subtitles: commands whose commits name two blobs, the transcript and the subtitles.
    func pilotWithSubtitles(_ episode: EpisodeID, in show: PodcastID) -> [Submission] {
        let transcript = Array("00:00:01\nAna\nWelcome to the show.\n00:00:05\nBo\nThanks for having me.\n".utf8)
        return [
            Submission(.createEpisode(in: .id(show), .create(id: episode, title: "Pilot", at: .now))),
            .importTranscript(transcript, into: .id(episode)),
            Submission(.convertTranscript(.id(episode))),
        ]
    }

    /// Every segment's commits, decompressed: what must be the same bytes on every machine.
    func logBytes(_ path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let log = try EventLog(at: path)
        try log.read(from: LogPosition(1)) { bytes += Array($0.line) + [0x0A] }
        return bytes
    }

    @Test("three machines write at once: every acknowledged command is on every machine, names and numbers stay unique, versions never repeat")
    func machinesWritingAtOnce() throws {
        let first = try Library.createShared(at: folder("a"), on: location)
        let show = try createPodcast("Shared Show", on: first)
        let paths = [folder("a"), folder("b"), folder("c")]
        for path in paths.dropFirst() { try Library.clone(location, into: path) }

        let acknowledged = Acknowledged()
        let commandsEach = 12
        DispatchQueue.concurrentPerform(iterations: paths.count) { machine in
            do {
                let library = try Library(at: paths[machine])
                for n in 0..<commandsEach {
                    // An episode with the next free number in the one podcast everyone writes to, and a
                    // podcast whose name every machine tries to take.
                    let episode = EpisodeID(UUID())
                    let created = try library.submit(
                        [Submission(.createEpisode(in: .id(show), .create(id: episode, title: "M\(machine) #\(n)", at: .now)))],
                        actor: "m\(machine)")
                    switch created.results[0] {
                    case .success(let outcome): acknowledged.add(outcome.commandID)
                    case .failure(let refusal): acknowledged.fail("machine \(machine), episode \(n): \(refusal)")
                    }
                    let podcast = PodcastID(UUID())
                    let named = try library.submit(
                        [Submission(.podcast(.id(podcast), .create(id: podcast, name: "Contested \(n)", at: .now)))], actor: "m\(machine)")
                    if case .success(let outcome) = named.results[0] { acknowledged.add(outcome.commandID) }
                }
            } catch {
                acknowledged.fail("\(error)")
            }
        }
        #expect(acknowledged.failures.isEmpty)
        #expect(acknowledged.commands.count == paths.count * commandsEach + commandsEach, "every episode, and each name once")

        var logs: [[UInt8]] = []
        for path in paths {
            let library = try Library(at: path)
            let episodes = try library.episodes(EpisodeQuery(podcast: show))
            #expect(episodes.count == paths.count * commandsEach)
            #expect(Set(episodes.map(\.number)).count == episodes.count, "episode numbers are unique")
            let names = try library.podcasts().map(\.name)
            #expect(Set(names).count == names.count, "podcast names are unique")
            var commands: Set<CommandID> = []
            try library.readLog(LogFilter()) { commands.insert($0.record.commandID) }
            #expect(acknowledged.commands.isSubset(of: commands))
            #expect(try library.verify().isClean)
            logs.append(try logBytes(path))
        }
        #expect(logs.allSatisfy { $0 == logs[0] }, "every machine's copy holds the same bytes")
    }

    @Test("a pushed library, cloned, has byte-identical envelopes, the same blobs and identical read models")
    func pushRoundTrip() throws {
        let studioPath = folder("own")
        let own = try Library.create(at: studioPath)
        let show = try createPodcast("Round Trip", on: own)
        let episode = EpisodeID(UUID())
        _ = try own.submit(pilotWithSubtitles(episode, in: show), actor: "ana")
        let renamed = try own.submit([Submission(.podcast(.id(show), .rename("Round Trip Two")))], actor: "ana").results[0].get()
        _ = try own.undo(.command(renamed.commandID), actor: "ana")
        let before = try logBytes(studioPath)

        let report = try own.push(to: location)
        #expect(report.sent == own.head.rawValue)
        #expect(report.blobs == 2, "the transcript and the subtitles")
        let clone = try Library.clone(location, into: folder("clone"))
        #expect(try logBytes(folder("clone")) == before)
        let pushed = try Library(at: studioPath)
        #expect(try clone.podcasts() == pushed.podcasts())
        #expect(try clone.episodeDetail(episode) == pushed.episodeDetail(episode))
        #expect(try clone.search("welcome").hits == pushed.search("welcome").hits)
        #expect(try clone.subtitles(of: .id(episode)).srt == pushed.subtitles(of: .id(episode)).srt, "the blob came from the server")
        #expect(try clone.verify().isClean)
        #expect(try pushed.verify().isClean, "the pushed library's read models stay valid")
        // Pushing again is refused: the library is shared now.
        #expect(throws: LibraryError.alreadyShared(path: studioPath)) { try pushed.push(to: location) }
    }

    @Test("a transcript imported on one machine is read on another: its blobs reach the server with the commits naming them")
    func blobsTravelWithCommits() throws {
        // Given a shared library on two machines
        let ana = try Library.createShared(at: folder("ana"), on: location)
        let show = try createPodcast("Show", on: ana)
        try Library.clone(location, into: folder("bo"))

        // When one machine imports a transcript and converts it
        let episode = EpisodeID(UUID())
        let report = try ana.submit(pilotWithSubtitles(episode, in: show), actor: "ana")
        #expect(report.results.allSatisfy { (try? $0.get()) != nil }, "\(report.results)")

        // Then the other machine reads both blobs, which only the server can have given it
        let bo = try Library(at: folder("bo"))
        #expect(try bo.subtitles(of: .id(episode)).srt == ana.subtitles(of: .id(episode)).srt)
        #expect(try bo.search("welcome").hits.map(\.episodeID) == [episode])
        #expect(try bo.verify().isClean)
    }

    @Test("a blob the server loses after its upload is sent once more; lost again, the change is refused at once, not decided again as if a teammate had come first")
    func blobLostOnServer() throws {
        // Given a shared library whose server throws away the first blob it is sent, as a clean-up on
        // the server between an upload and the commit naming it would
        let ana = try Library.createShared(at: folder("ana"), on: location)
        let show = try createPodcast("Show", on: ana)
        let schema = location.schema
        let server = PostgresServer.shared!
        #expect(server.run(sql: """
            CREATE TABLE \(schema).uploads (sha256 text NOT NULL);
            CREATE TABLE \(schema).losing (first_uploads integer NOT NULL);
            INSERT INTO \(schema).losing VALUES (1);
            CREATE FUNCTION \(schema).lose_blob() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO \(schema).uploads VALUES (NEW.sha256);
                IF (SELECT count(*) FROM \(schema).uploads) <= (SELECT first_uploads FROM \(schema).losing) THEN
                    DELETE FROM \(schema).blobs WHERE sha256 = NEW.sha256;
                END IF;
                RETURN NULL;
            END $$;
            CREATE TRIGGER lose_blob AFTER INSERT ON \(schema).blobs FOR EACH ROW EXECUTE FUNCTION \(schema).lose_blob();
            """) == 0)
        func uploads() -> Int? {
            (0...20).first { count in
                server.run(sql: "DO $$ BEGIN IF (SELECT count(*) FROM \(schema).uploads) <> \(count) THEN RAISE 'no'; END IF; END $$") == 0
            }
        }

        // When a transcript is imported, the blob is sent again and the import goes in
        let episode = EpisodeID(UUID())
        let imported = try ana.submit(Array(pilotWithSubtitles(episode, in: show).prefix(2)), actor: "ana")
        #expect(imported.results.allSatisfy { (try? $0.get()) != nil }, "\(imported.results)")
        #expect(uploads() == 2)
        let bo = try Library.clone(location, into: folder("bo"))
        #expect(try bo.search("welcome").hits.map(\.episodeID) == [episode])

        // When the server loses every blob, another transcript is refused after one more upload
        #expect(server.run(sql: "UPDATE \(schema).losing SET first_uploads = 1000") == 0)
        let head = ana.head
        let other = Array("00:00:01\nAna\nA second take.\n".utf8)
        let refused = try ana.submit([.importTranscript(other, into: .id(episode))], actor: "ana")
        #expect(uploads() == 4, "an upload with the decision and one more, not one for each decision of a race")
        let failure = try #require(refused.results.first.flatMap { result -> SubmitFailure? in
            if case .failure(let failure) = result { failure } else { nil }
        })
        #expect("\(failure)".contains("has no blob"), "\(failure)")
        #expect(ana.head == head, "nothing was appended")
    }

    @Test("a podcast a teammate deletes while an episode is being added to it: the addition is decided again, and refused")
    func readStreamExpected() throws {
        let ana = try Library.createShared(at: folder("ana"), on: location)
        let podcast = try createPodcast("Doomed", on: ana)
        let bo = try Library.clone(location, into: folder("bo"))
        // A teammate's deletion, appended on the server and held uncommitted for 3 s: Bo's catch-up
        // does not see it, and Bo's append waits for it.
        let stream = StreamID(rawValue: podcast.streamName)!
        let deletion = Commit(
            events: [ProposedEvent(stream: stream, type: "PodcastDeleted", json: #"{"podcastID":"\#(podcast)"}"#)],
            expectations: [stream: .exactly(1)], commandID: CommandID(UUID()), actor: "ana",
            timestamp: Timestamp(rawValue: 1_795_000_000_000)!)
        let holding = DispatchSemaphore(value: 0)
        let endpoint = location.endpoint, schema = location.schema
        let teammate = Thread {
            do {
                let session = try PostgresSession(endpoint)
                try session.transaction {
                    _ = try PostgresAppend.appendAtHead(
                        deletion, claims: [ClaimChange(.release, kind: "podcast-name", stream: stream)], schema: schema, on: session)
                    holding.signal()
                    Thread.sleep(forTimeInterval: 3)
                }
            } catch {
                Issue.record("the teammate's deletion failed: \(error)")
                holding.signal()
            }
        }
        teammate.start()
        defer { while !teammate.isFinished { Thread.sleep(forTimeInterval: 0.05) } }
        holding.wait()

        let report = try bo.submit(
            [Submission(.createEpisode(in: .id(podcast), .create(id: EpisodeID(UUID()), title: "Too late", at: .now)))], actor: "bo")

        // The append expected the podcast's stream as Bo read it; the deletion changed it, so Bo decided
        // again on the copy that holds the deletion, and the domain refused.
        #expect(throws: SubmitFailure.self) { try report.results[0].get() }
        if case .failure(let failure) = report.results[0] { #expect(failure.error is DomainError, "\(failure.error)") }
        var types: [String] = []
        try bo.readLog(LogFilter()) { types.append($0.record.type) }
        #expect(types == ["PodcastCreated", "PodcastDeleted"])
    }

    @Test("a teammate's later change makes undo refuse, as in a library of one's own")
    func undoAfterTeammate() throws {
        let ana = try Library.createShared(at: folder("ana"), on: location)
        let bo = try Library.clone(location, into: folder("bo"))
        let id = PodcastID(UUID())
        let created = try ana.submit([Submission(.podcast(.id(id), .create(id: id, name: "Ours", at: .now)))], actor: "ana").results[0].get()
        _ = try bo.submit([Submission(.podcast(.id(id), .describe("Bo's words")))], actor: "bo").results[0].get()
        #expect(throws: UndoError.self) { try ana.undo(.command(created.commandID), actor: "ana") }
        #expect(try ana.podcasts().first?.name == "Ours")
    }

    @Test("a server rolled back to an earlier point, or whose log was replaced: writes are refused and mix nothing in; reads answer from the copy, saying why")
    func rolledBackOrReplaced() throws {
        let ana = try Library.createShared(at: folder("ana"), on: location)
        for name in ["One", "Two", "Three"] { _ = try createPodcast(name, on: ana) }
        let bo = try Library.clone(location, into: folder("bo"))
        #expect(bo.head == LogPosition(3))

        // The server is restored to a point before the third event.
        let schema = location.schema
        #expect(PostgresServer.shared!.run(sql: """
            SET session_replication_role = replica;
            DELETE FROM \(schema).events WHERE position = 3;
            DELETE FROM \(schema).commits WHERE commit_first = 3;
            DELETE FROM \(schema).claims WHERE key = 'three';
            UPDATE \(schema).log_head SET position = 2, hash = (SELECT hash FROM \(schema).commits WHERE commit_last = 2);
            """) == 0)
        var notices: [ReadModelNotice] = []
        let boAgain = try Library(at: folder("bo"), notice: { notices.append($0) })
        #expect(throws: SharedLogError.serverBehind(server: LogPosition(2), local: LogPosition(3))) {
            try boAgain.submit([Submission(.podcast(.id(PodcastID(UUID())), .create(id: PodcastID(UUID()), name: "Four", at: .now)))], actor: "bo")
        }
        #expect(try logBytes(folder("bo")).count > 0 && boAgain.head == LogPosition(3))
        #expect(try boAgain.podcasts().map(\.name).sorted() == ["One", "Three", "Two"], "a read answers from the copy")
        #expect(try boAgain.podcasts().count == 3)
        let offline = notices.filter { if case .offline = $0 { true } else { false } }
        #expect(offline.count == 1, "said once: \(notices)")
        #expect("\(offline.first.map { "\($0)" } ?? "")".contains("restored to an earlier point"))

        // Someone else writes a different third event: the server's log no longer holds Bo's.
        let carol = try Library.clone(location, into: folder("carol"))
        _ = try createPodcast("Other Three", on: carol)
        #expect(throws: SharedLogError.logReplaced(position: LogPosition(3))) {
            try boAgain.submit([Submission(.podcast(.id(PodcastID(UUID())), .create(id: PodcastID(UUID()), name: "Four", at: .now)))], actor: "bo")
        }
        #expect(try Library(at: folder("bo")).podcasts().map(\.name).sorted() == ["One", "Three", "Two"])
        // And another library in the schema is refused by its id.
        let other = try Library.createShared(at: folder("other"), on: SharedLocation(url: PostgresServer.shared!.url, schema: PostgresServer.freshSchema()))
        try FileManager.default.removeItem(atPath: folder("other") + "/SHARED")
        let pointed = try SharedLocation(url: PostgresServer.shared!.url, schema: schema)
        #expect(throws: LibraryError.self) { try other.push(to: pointed) }
        #expect(boAgain.head == LogPosition(3), "nothing was mixed in")
    }

    @Test("a server that cannot be reached: writes refuse with a busy error and write nothing; reads answer from the copy and say how old it is")
    func unreachable() throws {
        let ana = try Library.createShared(at: folder("ana"), on: location)
        _ = try createPodcast("Before", on: ana)
        let unreachable = try SharedLocation(url: "postgres://nobody@127.0.0.1:1/none", schema: location.schema)
        let shared = folder("ana") + "/SHARED"
        let saved = try Data(contentsOf: URL(fileURLWithPath: shared))
        try Data(#"{"schema":"\#(location.schema)","url":"\#(unreachable.endpoint)"}"#.utf8).write(to: URL(fileURLWithPath: shared))
        var notices: [ReadModelNotice] = []
        let offline = try Library(at: folder("ana"), notice: { notices.append($0) })
        #expect(try offline.podcasts().map(\.name) == ["Before"])
        #expect(notices.contains { if case .offline(_, let asOf) = $0 { asOf != nil } else { false } })
        do {
            _ = try createPodcast("After", on: offline)
            Issue.record("a write without the server was accepted")
        } catch {
            #expect(ErrorKind(of: error) == .busy)
            #expect(error as? SharedLogError == .unreachable(server: "\(unreachable.endpoint)", reason: "connection refused"))
        }
        #expect(offline.head == LogPosition(1))
        try saved.write(to: URL(fileURLWithPath: shared))
        #expect(try Library(at: folder("ana")).podcasts().map(\.name) == ["Before"])
    }
}

/// What several machines' threads had acknowledged, and what failed.
final class Acknowledged: @unchecked Sendable {
    private let lock = NSLock()
    private var all: Set<CommandID> = []
    private var failed: [String] = []
    func add(_ id: CommandID) { lock.withLock { _ = all.insert(id) } }
    func fail(_ message: String) { lock.withLock { failed.append(message) } }
    var commands: Set<CommandID> { lock.withLock { all } }
    var failures: [String] { lock.withLock { failed } }
}

extension SharedLibraryTests {
    @Test("a push that stopped part way carries on where the server's log ends, and the result hashes as the library does")
    func interruptedPush() throws {
        let library = try Library.create(at: folder("own"))
        for name in ["One", "Two", "Three"] { _ = try createPodcast(name, on: library) }
        // What an interrupted push leaves: the server holds the library's first commits.
        try FileManager.default.copyItem(atPath: folder("own"), toPath: folder("prefix"))
        _ = try Library(at: folder("prefix")).push(to: location)
        for name in ["Four", "Five"] { _ = try createPodcast(name, on: library) }

        let report = try library.push(to: location)
        #expect(report.alreadyThere == 3)
        #expect(report.sent == 2)
        let clone = try Library.clone(location, into: folder("clone"))
        #expect(try logBytes(folder("clone")) == logBytes(folder("own")))
        #expect(try clone.podcasts().map(\.name).sorted() == ["Five", "Four", "One", "Three", "Two"])
    }

    @Test("a clone that stopped part way carries on when run again; another library's folder is refused")
    func cloneAgain() throws {
        let ana = try Library.createShared(at: folder("ana"), on: location)
        _ = try createPodcast("First", on: ana)
        _ = try Library.clone(location, into: folder("bo"))
        _ = try createPodcast("Second", on: ana)
        let again = try Library.clone(location, into: folder("bo"))
        #expect(try again.podcasts().map(\.name).sorted() == ["First", "Second"])

        let own = try Library.create(at: folder("own"))
        _ = try createPodcast("Mine", on: own)
        #expect(throws: LibraryError.libraryHasEvents(path: folder("own"), events: 1)) { try Library.clone(location, into: folder("own")) }
        #expect(throws: LibraryError.libraryHasEvents(path: folder("own"), events: 1)) { try Library.createShared(at: folder("own"), on: location) }
        #expect(throws: SharedLogError.schemaNotEmpty(server: "\(location.endpoint)", schema: location.schema, events: 2)) {
            try Library.createShared(at: folder("new"), on: location)
        }
    }

    @Test("log --follow's wait on a shared library wakes on the server's notification, well before its poll")
    func followWakesOnNotify() throws {
        let ana = try Library.createShared(at: folder("ana"), on: location)
        _ = try Library.clone(location, into: folder("bo"))
        let seen = Acknowledged()
        let started = ContinuousClock.now
        let bo = folder("bo")
        let follower = Thread {
            try? Library(at: bo).followLog(LogFilter(), pollInterval: .seconds(60), keepGoing: { seen.commands.isEmpty && ContinuousClock.now - started < .seconds(120) }) {
                seen.add($0.record.commandID)
            }
        }
        follower.start()
        Thread.sleep(forTimeInterval: 0.5)
        let created = try ana.submit(
            [Submission(.podcast(.id(PodcastID(UUID())), .create(id: PodcastID(UUID()), name: "Live", at: .now)))], actor: "ana")
        let id = try created.results[0].get().commandID
        while !follower.isFinished { Thread.sleep(forTimeInterval: 0.05) }
        #expect(seen.commands == [id])
        #expect(ContinuousClock.now - started < .seconds(30), "the follower waited for its poll, not the notification")
    }
}
