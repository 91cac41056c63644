import Foundation
import Testing

/// `log` for people: the newest few, newest first, and a misspelt event type caught.
@Suite("log -n, --reverse and --type")
struct LogListCLITests {
    /// A library of five events: a podcast and four episodes.
    private static func library() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        for title in ["One", "Two", "Three", "Four"] { try cli.must("episode", "create", "Show", title) }
        return cli
    }

    private static func positions(_ run: CLI.Run) throws -> [Int] {
        try run.jsonLines().map { $0["position"] as! Int }
    }

    @Test("-n keeps the newest events, in log order; --reverse prints newest first; both together the newest, newest first")
    func newest() throws {
        let cli = try Self.library()
        #expect(try Self.positions(cli.must("log", "--json", "-n", "2")) == [4, 5])
        #expect(try Self.positions(cli.must("log", "--json", "--reverse")) == [5, 4, 3, 2, 1])
        #expect(try Self.positions(cli.must("log", "--json", "--limit", "3", "--reverse")) == [5, 4, 3])
        #expect(try Self.positions(cli.must("log", "--json", "-n", "2", "--type", "EpisodeCreated", "--until", "4")) == [3, 4])
        #expect(try cli.must("log", "-n", "0").out.isEmpty)
        #expect(try cli.must("log", "-n", "1").out.split(separator: "\n").count == 1)
    }

    @Test("An unknown --type is a usage error naming the closest type and listing them; --follow with --reverse too")
    func refusals() throws {
        let cli = try Self.library()
        let misspelt = try cli.run(["log", "--type", "episodecreated"])
        #expect(misspelt.status == 64)
        #expect(misspelt.err.contains("there is no event type \"episodecreated\". Did you mean EpisodeCreated?"))
        #expect(misspelt.err.contains("TranscriptImported"))
        let far = try cli.run(["log", "--type", "Nonsense"])
        #expect(far.status == 64 && !far.err.contains("Did you mean"))
        #expect(try cli.run(["log", "--follow", "--reverse"]).status == 64)
    }
}
