import Foundation
import Testing

/// `episode list --all` and `search --podcast`, and a transcript holding a NUL is searchable whole.
@Suite("Listing every podcast, searching one")
struct ListAndSearchCLITests {
    private static func library() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("podcast", "create", "Garden Hour")
        try cli.must("episode", "create", "Night Shift", "Owls at midnight")
        try cli.must("episode", "create", "Night Shift", "Insomnia")
        try cli.must("episode", "create", "Garden Hour", "Owls in the orchard")
        return cli
    }

    @Test("--all lists every podcast's episodes, podcast by podcast by name, with a PODCAST column; paging spans them")
    func listAll() throws {
        let cli = try Self.library()
        let all = try cli.list("episode", "list", "--all", "--sort", "number")
        #expect(all.map { $0["title"] as? String } == ["Owls in the orchard", "Owls at midnight", "Insomnia"])
        #expect(try cli.list("episode", "list", "--all", "--sort", "number", "--limit", "1", "--offset", "1").map { $0["title"] as? String } == ["Owls at midnight"])
        let table = try cli.must("episode", "list", "--all").out
        #expect(table.hasPrefix("PODCAST") && table.contains("Garden Hour") && table.contains("Night Shift"))
        #expect(try cli.run(["episode", "list"]).status == 64)
        #expect(try cli.run(["episode", "list", "Night Shift", "--all"]).status == 64)
    }

    @Test("episode list --deleted: the deleted episodes as they were, each with the command that brings it back")
    func deletedEpisodes() throws {
        // Given two episodes of a podcast deleted by two commands, and a live one
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        for title in ["One", "Two", "Three"] { try cli.must("episode", "create", "Show", title) }
        let first = try cli.object("episode", "delete", "Show/1", "--json")["commandID"] as! String
        try cli.must("episode", "delete", "Show/3")

        // When they are listed
        let listed = try cli.list("episode", "list", "Show", "--deleted")
        let shown = try cli.must("episode", "list", "Show", "--deleted").out

        // Then both are there by number, with their titles and deleting commands; the live one is not
        #expect(listed.map { $0["number"] as? Int } == [1, 3] && listed.map { $0["title"] as? String } == ["One", "Three"])
        #expect(listed[0]["deletedBy"] as? String == first)
        #expect(shown.contains(" One ") && shown.contains(String(first.prefix(8))) && !shown.contains("Two"), "\(shown)")
        #expect(shown.hasSuffix("To bring one back: episodic undo <DELETED BY> (undoing a podcast's deletion brings back its episodes)\n"))

        // And undoing the command named brings the episode back, off the list
        try cli.must("undo", String(first.prefix(8)))
        #expect(try cli.list("episode", "list", "Show", "--deleted").map { $0["number"] as? Int } == [3])
        #expect(try cli.must("episode", "list", "Show", "--deleted").out.hasSuffix("To bring it back: episodic undo \((listed[1]["deletedBy"] as! String).prefix(8))\n"))
        #expect(try cli.run("episode", "list", "Show", "--deleted", "--missing", "srt").status == 64)
    }

    @Test("--podcast limits a search to one podcast's episodes")
    func searchOnePodcast() throws {
        let cli = try Self.library()
        #expect(try cli.list("search", "owls").count == 2)
        let garden = try cli.list("search", "owls", "--podcast", "Garden Hour")
        #expect(garden.map { $0["title"] as? String } == ["Owls in the orchard"])
        #expect(try cli.run(["search", "owls", "--podcast", "Nope"]).status == 65)
        // Each hit names its episode as people do: the podcast's name and the episode's number.
        #expect(garden.allSatisfy { $0["podcastName"] as? String == "Garden Hour" && $0["number"] is Int }, "\(garden)")
    }

    @Test("A transcript holding a NUL is searchable after it too")
    func nulInTranscript() throws {
        let cli = try Self.library()
        try cli.must("transcript", "import", "Night Shift/1", try cli.write("00:00:01\nAna\nBefore \u{0} after the owls hooted.\n", to: "nul.txt"))
        #expect(try cli.list("search", "hooted").map { $0["title"] as? String } == ["Owls at midnight"])
    }
}
