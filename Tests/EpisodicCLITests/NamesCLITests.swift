import Foundation
import Testing

/// Output for people names podcasts and episodes as people do; ids stay in `--json` and `--verbose`.
@Suite("Names, not UUIDs: podcast show, show and episode show, search, errors")
struct NamesCLITests {
    private static func library() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift Radio", "--description", "After dark.")
        try cli.must("podcast", "defaults", "Night Shift Radio", "--font-size", "96")
        for title in ["Pilot", "Static", "Owls"] { try cli.must("episode", "create", "Night Shift Radio", title) }
        return cli
    }

    @Test("An episode reference that answers to nothing says what was probably meant, or the podcast's numbers")
    func episodeSuggestions() throws {
        let cli = try Self.library()
        let spaced = try cli.run("episode", "show", "Night Shift Radio 3")
        #expect(spaced.status == 65 && spaced.err.contains(#"no episode answers to "Night Shift Radio 3". Did you mean "Night Shift Radio/3"?"#), "\(spaced.err)")
        let past = try cli.run("episode", "show", "night shift radio/7")
        #expect(past.status == 65, "\(past.err)")
        #expect(past.err.contains(#"no episode answers to "night shift radio/7": "Night Shift Radio" has episodes numbered up to 3."#), "\(past.err)")
        #expect(past.err.contains("`episodic episode list 'Night Shift Radio'` shows them."), "\(past.err)")
        try cli.must("podcast", "create", "Empty")
        #expect(try cli.run("episode", "show", "Empty/1").err.contains(#""Empty" has no episodes yet"#))
        let none = try cli.must("episode", "list", "Empty").out
        #expect(none == "No episodes yet in \"Empty\". To make one: episodic episode create Empty <title>\n", "\(none)")
    }

    @Test("podcast show: the podcast, its episode count and the thumbnail defaults; --json the podcast as its events write it")
    func podcastShow() throws {
        let cli = try Self.library()
        let shown = try cli.must("podcast", "show", "Night Shift Radio").out
        #expect(shown.contains("name:                  Night Shift Radio\n"))
        #expect(shown.contains("episodes:              3\n"))
        #expect(shown.contains("default font:          default bold 96 pt"))
        let json = try cli.object("podcast", "show", "Night Shift Radio")
        #expect(json["episodeCount"] as? Int == 3)
        let podcast = try #require(json["podcast"] as? [String: Any])
        #expect((podcast["thumbnailDefaults"] as? [String: Any])?["fontSize"] as? Double == 96)
        #expect(try cli.run("podcast", "show", "Nope").status == 65)
        // show of a podcast: the same lines under a line that says when.
        let now = try cli.must("show", "Night Shift Radio").out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(now[0].hasPrefix("podcast \"Night Shift Radio\" at position "))
        #expect(now.dropFirst().prefix(shown.split(separator: "\n").count).joined(separator: "\n") + "\n" == shown)
    }

    @Test("show of an episode prints what episode show prints, under a line that says when; both name the podcast")
    func showAgrees() throws {
        let cli = try Self.library()
        try cli.must("episode", "retitle", "Night Shift Radio/2", "Static Electricity")
        let sheet = try cli.must("episode", "show", "Night Shift Radio/2").out
        #expect(sheet.contains("podcast:        Night Shift Radio ("))
        let shown = try cli.must("show", "Night Shift Radio/2").out
        let lines = shown.split(separator: "\n", maxSplits: 1)
        #expect(lines[0].hasPrefix("episode \"Night Shift Radio/2\" at position "))
        #expect(String(lines[1]) == sheet)
    }

    @Test("search answers with <podcast>/<number>, which commands take back; --verbose adds the id")
    func search() throws {
        let cli = try Self.library()
        let out = try cli.must("search", "owls").out
        let row = try #require(out.split(separator: "\n").dropFirst().first)
        #expect(row.hasPrefix("Night Shift Radio/3  Owls"))
        #expect(!out.contains("ID"))
        #expect(try cli.must("search", "owls", "--verbose").out.split(separator: "\n")[0].hasSuffix("ID"))
        // At any width, the reference stays whole, one a command takes back: the title goes, then the
        // match is cut; where the name would leave the match too little room, the id's prefix stands for it.
        for columns in ["60", "45"] {
            let narrow = try cli.run(["search", "owls"], environment: ["COLUMNS": columns]).out
            let row = try #require(narrow.split(separator: "\n").dropFirst().first)
            #expect(row.hasPrefix("Night Shift Radio/3  "), "\(narrow)")
            #expect(row.count <= Int(columns)!, "\(narrow)")
        }
        let tight = try cli.run(["search", "owls"], environment: ["COLUMNS": "40"]).out
        let prefix = try #require(tight.split(separator: "\n").dropFirst().first?.prefix(8))
        #expect(try cli.must("episode", "show", String(prefix)).out.contains("Owls"), "\(tight)")
    }

    @Test("a refusal names the episode as people do, not by its id")
    func refusalsNameThings() throws {
        let cli = try Self.library()
        let id = try #require(try cli.list("episode", "list", "Night Shift Radio").first { $0["number"] as? Int == 2 }?["id"] as? String)
        try cli.must("episode", "delete", "Night Shift Radio/2")
        let refused = try cli.run("episode", "retitle", String(id.prefix(8)), "Again")
        #expect(refused.status == 65)
        #expect(refused.err.contains("episode \"Night Shift Radio/2\" (\"Static\") was deleted"), "\(refused.err)")
        #expect(!refused.err.contains(id))
        let json = try cli.run("episode", "retitle", String(id.prefix(8)), "Again", "--json")
        #expect(json.err.contains("Night Shift Radio/2"))
    }
}
