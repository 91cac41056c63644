import Episodic
import Foundation
import Testing

/// `Library.changes(after:)`: an app is told of every commit, in order, whoever made it.
@Suite("Changes, observed")
struct LibraryChangesTests {
    /// The next change, or a failure after `seconds`: a sequence that never yields must not hang the run.
    static func next(_ iterator: inout LibraryChanges.Iterator, within seconds: Double = 10) async throws -> LibraryChange? {
        let deadline = Task {
            try await Task.sleep(for: .seconds(seconds))
            Issue.record("no change within \(seconds) s")
        }
        defer { deadline.cancel() }
        return try await iterator.next()
    }

    /// Starts `episodic arguments` as another process in 0.3 s, while the test waits for its change.
    static func soon(_ cli: CLI, _ arguments: String...) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "sleep 0.3; exec \"$@\"", "sh", CLI.binary] + arguments
        process.environment = cli.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test("commits already in the log, then those other processes make, each once, in order, with what they touched",
          .timeLimit(.minutes(1)))
    func seesOtherProcesses() async throws {
        // Given a library with a podcast and an episode, followed from its start
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("episode", "create", "Night Shift", "One")
        let library = try Library(at: cli.library)
        let podcast = try #require(try library.podcasts().first)
        let episode = try #require(try library.episodes(EpisodeQuery(podcast: podcast.id)).first)
        var changes = library.changes(after: .none).makeAsyncIterator()

        // Then the two commits already made come first
        let created = try #require(try await Self.next(&changes))
        #expect(created.positions == LogPosition(1)...LogPosition(1) && created.actor == "tester" && created.podcasts == [podcast.id])
        let second = try #require(try await Self.next(&changes))
        #expect(second.positions.lowerBound == LogPosition(2) && second.episodes == [episode.id])
        #expect(second.head == second.positions.upperBound)

        // When another process retitles the episode while the sequence waits
        let writer = try Self.soon(cli, "episode", "retitle", "Night Shift/1", "Two")
        let retitled = try #require(try await Self.next(&changes))
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(retitled.positions.lowerBound == second.positions.upperBound.next)
        #expect(retitled.episodes == [episode.id] && retitled.podcasts.isEmpty)

        // And an undo says what it undid; a podcast's deletion touches it and each of its episodes
        try cli.must("undo", "--last")
        let undo = try #require(try await Self.next(&changes))
        #expect(undo.undoes == retitled.commandID)
        try cli.must("podcast", "delete", "Night Shift")
        let deleted = try #require(try await Self.next(&changes))
        #expect(deleted.podcasts == [podcast.id] && deleted.episodes == [episode.id])
        #expect(deleted.positions.upperBound.rawValue - deleted.positions.lowerBound.rawValue == 1, "two events, one commit")

        // And a sequence resumed after any position gives exactly what followed it
        var resumed = library.changes(after: second.positions.upperBound).makeAsyncIterator()
        for expected in [retitled, undo, deleted] {
            let again = try #require(try await Self.next(&resumed))
            #expect(again.positions == expected.positions && again.commandID == expected.commandID)
        }
    }

    @Test("cancelling the task that waits ends the sequence: next() returns nil", .timeLimit(.minutes(1)))
    func cancellationEnds() async throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        let library = try Library(at: cli.library)
        let changes = library.changes(after: library.head)
        let follower = Task {
            var count = 0
            for try await _ in changes { count += 1 }
            return count
        }
        try await Task.sleep(for: .milliseconds(300))
        follower.cancel()
        #expect(try await follower.value == 0, "it ended, having seen nothing")
    }

    @Test("an observed query answers now, then only when a commit changes its answer, never older than the position it gives",
          .timeLimit(.minutes(1)))
    func observesAQuery() async throws {
        // Given two podcasts, and the titles of one's episodes observed
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("podcast", "create", "Morning Show")
        try cli.must("episode", "create", "Night Shift", "One")
        let library = try Library(at: cli.library)
        let night = try #require(try library.podcasts().first { $0.name == "Night Shift" }).id
        var titles = library.observe { try $0.episodes(EpisodeQuery(podcast: night, sort: .number)).map(\.title) }.makeAsyncIterator()

        // Then the first answer is the titles now, read at the head
        let first = try #require(try await titles.next())
        #expect(first.value == ["One"] && first.position == library.head)

        // When other processes change the other podcast, then this one
        try cli.must("episode", "create", "Morning Show", "Dawn")
        try cli.must("podcast", "rename", "Morning Show", "Early Show")
        let writer = try Self.soon(cli, "episode", "create", "Night Shift", "Two")

        // Then the next answer is the one the change to this podcast made: the others changed nothing it shows
        let second = try #require(try await titles.next())
        writer.waitUntilExit()
        #expect(second.value == ["One", "Two"])
        #expect(second.position == (try Library(at: cli.library).head), "read after the episode's commit, at the head")
    }

    @Test("the example app under Examples/ prints each change another process makes", .timeLimit(.minutes(1)))
    func exampleApp() throws {
        // Given a library, and the example following it
        let cli = CLI()
        try cli.must("init")
        let example = Process()
        example.executableURL = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().appendingPathComponent("follow-changes")
        example.arguments = [cli.library, "--count", "2"]
        let output = Pipe()
        example.standardOutput = output
        try example.run()
        let lines = output.fileHandleForReading
        #expect(String(decoding: lines.availableData, as: UTF8.self).hasPrefix("following \(cli.library) from position 0"))

        // When another process makes a podcast and an episode
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("episode", "create", "Night Shift", "One")

        // Then it printed both, naming the podcast, and stopped
        let printed = String(decoding: lines.readDataToEndOfFile(), as: UTF8.self)
        example.waitUntilExit()
        #expect(example.terminationStatus == 0)
        #expect(printed == """
            position 1: tester changed podcast Night Shift
            position 2: tester changed 1 episode

            """, "\(printed)")
    }
}
