import EventLog
import Foundation
import PodcastDomain
import TestSupport
import Testing

/// A podcaster's whole session through the built binary: every step a real process on a real library.
@Suite("A full session")
struct SessionTests {
    @Test("create, import the fixture transcripts, convert, export, list every way, delete")
    func fullSession() throws {
        let cli = CLI()
        try cli.must("init")

        // Given a podcast with three episodes,
        let podcast = try cli.object("podcast", "create", "Release Notes", "--description", "Shipping software")
        #expect(podcast["command"] as? String == "podcast.create")
        let podcastID = try #require(podcast["created"] as? String)
        let titles = ["Zencastr chat", "Ángel's timestamps", "Time ranges"]
        let dates = ["2026-03-01", "2026-01-15", "2026-02-10"]
        var episodes: [String] = []
        for (title, date) in zip(titles, dates) {
            let created = try cli.object("episode", "create", "release notes", title, "--publish-date", date)
            episodes.append(try #require(created["created"] as? String))
        }

        // when each gets one of the fixture transcripts, converted to SRT,
        for (number, name) in Fixtures.names.enumerated() {
            try cli.must("transcript", "import", "Release Notes/\(number + 1)", Fixtures.path(name))
            let converted = try cli.object("transcript", "convert", "Release Notes/\(number + 1)")
            #expect(converted["events"] as? [String] == ["SRTGenerated"])
        }

        // then the exported SRT is exactly the domain's conversion of the file,
        for (number, name) in Fixtures.names.enumerated() {
            let expected = try SubtitleConversion.convert(String(contentsOfFile: Fixtures.path(name), encoding: .utf8)).srt
            let file = cli.folder + "/episode-\(number + 1).srt"
            try cli.must("transcript", "export", "Release Notes/\(number + 1)", file)
            #expect(try String(contentsOfFile: file, encoding: .utf8) == expected)
            #expect(try cli.must("transcript", "export", String(episodes[number].prefix(8))).out == expected)
        }

        // and the list sorts and filters as asked.
        func numbers(_ options: String...) throws -> [Int] {
            try cli.list(["episode", "list", podcastID] + options).map { $0["number"] as! Int }
        }
        #expect(try numbers() == [3, 2, 1])
        #expect(try numbers("--sort", "number") == [1, 2, 3])
        #expect(try numbers("--sort", "-number") == [3, 2, 1])
        #expect(try numbers("--sort", "title") == [2, 3, 1])  // "Ángel" folds to "angel"
        #expect(try numbers("--sort", "-title") == [1, 3, 2])
        #expect(try numbers("--sort", "date") == [2, 3, 1])
        #expect(try numbers("--sort", "-date") == [1, 3, 2])
        #expect(try numbers("--search", "angel") == [2])
        #expect(try numbers("--limit", "1", "--offset", "1", "--sort", "number") == [2])

        // A changed transcript makes its SRT outdated; a cleared one leaves it missing a transcript.
        try cli.must("transcript", "import", "Release Notes/1", Fixtures.path("time-range-sample.txt"))
        try cli.must("transcript", "clear", "Release Notes/3")
        #expect(try numbers("--outdated", "srt") == [3, 1])
        #expect(try numbers("--missing", "transcript") == [3])
        #expect(try numbers("--missing", "srt") == [])
        #expect(try numbers("--missing", "thumbnail") == [3, 2, 1])
        #expect(try numbers("--outdated", "thumbnail") == [])
        let table = try cli.must("episode", "list", "Release Notes", "--sort", "number").out
        #expect(table.contains("TRANSCRIPT"))
        #expect(table.split(separator: "\n")[1].contains("!"), "episode 1's SRT is outdated: \(table)")

        // Images: the artwork, and an episode's background and overlay, by their size in pixels.
        let image = RepositoryFiles.image("overlay.png")
        try cli.must("podcast", "artwork", "Release Notes", image)
        try cli.must("thumbnail", "background", "Release Notes/2", image)
        try cli.must("thumbnail", "overlay", "Release Notes/2", image)
        let shown = try cli.object("episode", "show", "Release Notes/2")
        #expect((shown["background"] as? [String: Any])?["width"] as? Int == 160)
        #expect((shown["overlay"] as? [String: Any])?["height"] as? Int == 90)
        #expect(try cli.object("thumbnail", "overlay", "Release Notes/2", "--clear")["events"] as? [String] == ["ThumbnailOverlayCleared"])

        let listed = try cli.list("podcast", "list")
        #expect(listed.map { $0["episodeCount"] as? Int } == [3])
        #expect(listed.map { $0["missingTranscriptCount"] as? Int } == [1])
        let imageBytes = try Data(contentsOf: URL(fileURLWithPath: image)).count
        #expect((listed.first?["artwork"] as? [String: Any])?["bytes"] as? Int == imageBytes)

        // Deleting an episode, then the podcast, empties the lists.
        try cli.must("episode", "delete", "Release Notes/2")
        #expect(try numbers() == [3, 1])
        let deleted = try cli.object("podcast", "delete", "Release Notes")
        #expect(deleted["events"] as? [String] == ["PodcastDeleted", "EpisodeDeleted", "EpisodeDeleted"])
        #expect(try cli.list("podcast", "list").isEmpty)
        let gone = try cli.run("episode", "list", podcastID)
        #expect(gone.status == 0 && gone.out.contains("No episodes"))
    }

    @Test("the actor is recorded: --actor, else EPISODIC_ACTOR, else the login name")
    func actor() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "A", "--actor", "alice")
        try cli.must("podcast", "create", "B")
        var plain = cli.environment
        plain["EPISODIC_ACTOR"] = nil
        cli.environment = plain
        try cli.must("podcast", "create", "C")
        let actors = try EventLog(at: cli.library).events().map(\.actor)
        #expect(actors == ["alice", "tester", String(cString: getpwuid(geteuid())!.pointee.pw_name)])
    }

    @Test("the library is --library, else EPISODIC_LIBRARY, else the XDG data folder")
    func location() throws {
        let cli = CLI()
        var environment = cli.environment
        environment["EPISODIC_LIBRARY"] = nil
        environment["XDG_DATA_HOME"] = cli.folder + "/xdg"
        cli.environment = environment
        try cli.must("init")
        #expect(FileManager.default.fileExists(atPath: cli.folder + "/xdg/episodic/FORMAT"))
        try cli.must("init", "--library", cli.folder + "/explicit")
        #expect(FileManager.default.fileExists(atPath: cli.folder + "/explicit/FORMAT"))
        let named = try cli.run(["podcast", "list"], environment: ["EPISODIC_LIBRARY": cli.folder + "/nowhere"])
        #expect(named.status == 66)
        #expect(named.err.contains("no library at \(cli.folder)/nowhere"))
        #expect(named.err.contains("episodic init"))
    }
}
