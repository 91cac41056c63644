import Foundation
import Testing

/// Times as people read them: local with the zone's offset, --utc on request, JSON always UTC;
/// --since in words; a script's creations dated by when each ran.
@Suite("Time: local zones, --utc, --since in words, script times, podcast list --sort")
struct TimeCLITests {
    /// India: +05:30 all year, so the expected text never moves with daylight saving.
    private static let india = ["TZ": "Asia/Kolkata"]

    private static func library() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        let script = try cli.write([
            #"{"command":"podcast.create","name":"Alpha"}"#,
            #"{"command":"podcast.create","name":"Bravo"}"#,
            #"{"command":"podcast.create","name":"Charlie"}"#,
            #"{"command":"episode.create","podcast":"Alpha","title":"One"}"#,
            #"{"command":"episode.create","podcast":"Alpha","title":"Two"}"#,
            #"{"command":"episode.create","podcast":"Charlie","title":"Three"}"#,
        ].joined(separator: "\n"), to: "script.jsonl")
        try cli.must("submit", script)
        return cli
    }

    @Test("Tables and sheets print local times with the offset; --utc prints UTC; --json stays UTC")
    func zones() throws {
        let cli = try Self.library()
        let log = try cli.run(["log"], environment: Self.india)
        #expect(log.status == 0)
        let first = try #require(log.out.split(separator: "\n").first)
        #expect(first.contains(" +05:30  "), "\(first)")
        #expect(try cli.run(["log", "--utc"], environment: Self.india).out.split(separator: "\n")[0].contains(" UTC  "))
        #expect(try cli.run(["log", "--json"], environment: Self.india).out.contains(#""time":"20"#))

        let list = try cli.run(["podcast", "list"], environment: Self.india).out
        #expect(list.contains("CREATED (+05:30)"))
        let shown = try cli.run(["episode", "show", "Alpha/1"], environment: Self.india).out
        #expect(shown.split(separator: "\n").contains { $0.hasPrefix("created:") && $0.hasSuffix(" +05:30") }, "\(shown)")
        // The same instant, told in both zones: 5 hours 30 minutes apart on the wall clock.
        let local = try cli.list("podcast", "list").first!["createdAt"] as! String
        let utc = try cli.run(["podcast", "show", "Alpha", "--utc"], environment: Self.india).out
        #expect(utc.contains("created:               \(local.prefix(10)) \(local.dropFirst(11).prefix(8)) UTC"), "\(utc)")
    }

    @Test("--since and --until take yesterday, today, weekdays and '2 days ago'; other words are refused")
    func since() throws {
        let cli = try Self.library()
        let all = try cli.must("log").out.split(separator: "\n").count
        #expect(all == 6)
        for words in ["yesterday", "today", "2 days ago", "an hour ago", "last monday", "fri", "1 week ago"] {
            #expect(try cli.must("log", "--since", words).out.split(separator: "\n").count == all, "\(words)")
        }
        #expect(try cli.must("log", "--until", "yesterday").out.isEmpty)
        #expect(try cli.must("log", "--since", "now").out.isEmpty)
        let refused = try cli.run("log", "--since", "last week")
        #expect(refused.status == 65 && refused.err.contains("yesterday, a weekday"))
        #expect(try cli.must("show", "Alpha", "--as-of", "yesterday").out.contains("did not exist yet"))
    }

    @Test("A script's creations are dated by when each ran: newest first lists them last line first; --sort")
    func scriptTimes() throws {
        let cli = try Self.library()
        let podcasts = try cli.list("podcast", "list")
        #expect(podcasts.map { $0["name"] as? String } == ["Charlie", "Bravo", "Alpha"])
        let times = podcasts.map { $0["createdAt"] as! String }
        #expect(Set(times).count == 3, "each creation has its own time")
        let episodes = try cli.list("episode", "list", "Alpha")
        #expect(Set(episodes.map { $0["createdAt"] as! String }).count == 2)

        let byName = try cli.must("podcast", "list", "--sort", "name").out.split(separator: "\n").dropFirst()
        #expect(byName.map { $0.contains("Alpha") } == [true, false, false])
        let byEpisodes = try cli.must("podcast", "list", "--sort", "episodes").out.split(separator: "\n").dropFirst()
        #expect(byEpisodes.first?.contains("Alpha") == true && byEpisodes.last?.contains("Bravo") == true)
        #expect(try cli.run("podcast", "list", "--sort", "size").status == 64)
    }
}
