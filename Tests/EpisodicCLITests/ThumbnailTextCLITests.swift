import Foundation
import Testing

/// A thumbnail says the episode's number, its title (following each retitle), or words of one's own; a
/// podcast's default says which its new episodes start with.
@Suite("Thumbnail text")
struct ThumbnailTextCLITests {
    @Test("thumbnail text --from-title follows the title: a retitle changes the words and outdates the render")
    func followsTheTitle() throws {
        // Given an episode with a background and a render of its default text
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("episode", "create", "Night Shift", "The lighthouse keeper")
        try cli.must("thumbnail", "background", "Night Shift/1", ThumbnailCLITests.fixture("scaling-aspectFill.png"))
        #expect(try cli.object("episode", "show", "Night Shift/1")["thumbnailText"] as? String == "EP 1")

        // When it is told to draw its title, and rendered
        let told = try cli.must("thumbnail", "text", "Night Shift/1", "--from-title").out
        #expect(told.contains("from EP <number> to the title"), "\(told)")
        try cli.must("thumbnail", "render", "Night Shift/1")
        var shown = try cli.object("episode", "show", "Night Shift/1")
        #expect(shown["thumbnailText"] as? String == "The lighthouse keeper" && shown["thumbnailTextSource"] as? String == "title")
        #expect(try cli.must("episode", "show", "Night Shift/1").out.contains("The lighthouse keeper (follows the title)"))

        // Then a retitle changes the words drawn, and the render is out of date until drawn again
        try cli.must("episode", "retitle", "Night Shift/1", "Keeper of lights")
        shown = try cli.object("episode", "show", "Night Shift/1")
        #expect(shown["thumbnailText"] as? String == "Keeper of lights")
        let todo = try cli.must("todo").out
        #expect(todo.contains("thumbnail outdated") && todo.contains("thumbnail render"), "\(todo)")
        try cli.must("thumbnail", "render", "Night Shift/1")
        #expect(try cli.must("episode", "show", "Night Shift/1").out.contains("outdated") == false)

        // And words of one's own stop following it; --default goes back to the number; undo walks back
        try cli.must("thumbnail", "text", "Night Shift/1", "Lights out")
        try cli.must("episode", "retitle", "Night Shift/1", "Another title")
        #expect(try cli.object("episode", "show", "Night Shift/1")["thumbnailText"] as? String == "Lights out")
        try cli.must("thumbnail", "text", "Night Shift/1", "--default")
        #expect(try cli.object("episode", "show", "Night Shift/1")["thumbnailTextSource"] as? String == "number")
        try cli.must("undo", "--last")
        #expect(try cli.object("episode", "show", "Night Shift/1")["thumbnailText"] as? String == "Lights out")
        let history = try cli.must("history", "Night Shift/1").out
        #expect(history.contains("thumbnail text: EP <number> → the title"), "\(history)")
    }

    @Test("podcast defaults --text-from-title: new episodes say their title; --apply-to-existing changes the others, a command each")
    func podcastDefault() throws {
        // Given a podcast with two episodes saying their numbers
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("episode", "create", "Night Shift", "One")
        try cli.must("episode", "create", "Night Shift", "Two")

        // When new episodes are to say their title
        let set = try cli.must("podcast", "defaults", "Night Shift", "--text-from-title").out
        #expect(set.contains("default thumbnail text"), "\(set)")
        #expect(try cli.must("podcast", "show", "Night Shift").out.contains("the episode's title"))

        // Then the next episode says its title, and the ones before keep their numbers
        try cli.must("episode", "create", "Night Shift", "Three")
        #expect(try cli.object("episode", "show", "Night Shift/3")["thumbnailText"] as? String == "Three")
        #expect(try cli.object("episode", "show", "Night Shift/1")["thumbnailText"] as? String == "EP 1")

        // And words given with --apply-to-existing reach every episode, each its own command
        let head = try cli.object("info")["head"] as? Int
        let applied = try cli.must("podcast", "defaults", "Night Shift", "--text", "LIVE", "--apply-to-existing").out
        #expect(applied.contains("Changed the text of 3 of 3 episodes."), "\(applied)")
        for number in 1...3 {
            #expect(try cli.object("episode", "show", "Night Shift/\(number)")["thumbnailText"] as? String == "LIVE")
        }
        #expect(try cli.object("info")["head"] as? Int == (head ?? 0) + 4, "the default, then one commit per episode")
        try cli.must("undo", "--last")
        #expect(try cli.object("episode", "show", "Night Shift/3")["thumbnailText"] as? String == "Three")
        #expect(try cli.object("episode", "show", "Night Shift/2")["thumbnailText"] as? String == "LIVE")

        // And settings and text together are two commands; run again, nothing is left to change
        try cli.must("podcast", "defaults", "Night Shift", "--font-size", "96", "--text-default", "--apply-to-existing")
        let again = try cli.must("podcast", "defaults", "Night Shift", "--font-size", "96", "--text-default", "--apply-to-existing").out
        #expect(again.contains("Changed the settings and text of 0 of 3 episodes; 3 had them already."), "\(again)")
    }

    @Test("two choices at once are refused with exit 64 and nothing written; scripts have the same commands")
    func refusalsAndScripts() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("episode", "create", "Night Shift", "One")
        let head = try cli.object("info")["head"] as? Int

        let both = try cli.run("thumbnail", "text", "Night Shift/1", "Words", "--from-title")
        #expect(both.status == 64 && both.err.contains("Give one of the text, --from-title and --default."), "\(both.err)")
        let none = try cli.run("thumbnail", "text", "Night Shift/1")
        #expect(none.status == 64)
        let two = try cli.run("podcast", "defaults", "Night Shift", "--text", "A", "--text-default")
        #expect(two.status == 64 && two.err.contains("--text-from-title"), "\(two.err)")
        let long = try cli.run("thumbnail", "text", "Night Shift/1", String(repeating: "x", count: 101))
        #expect(long.status != 0 && long.status != 64)
        #expect(try cli.object("info")["head"] as? Int == head, "nothing written")

        let script = """
            {"command":"podcast.text.from-title","podcast":"Night Shift"}
            {"command":"episode.create","podcast":"Night Shift","title":"Two"}
            {"command":"thumbnail.text.from-title","episode":"Night Shift/1"}
            {"command":"podcast.text","podcast":"Night Shift","text":null}
            """
        let ran = try cli.must("submit", "-", "--json", input: script)
        #expect(ran.out.contains("\"command\":\"thumbnail.text.from-title\""), "\(ran.out)")
        #expect(try cli.object("episode", "show", "Night Shift/1")["thumbnailText"] as? String == "One")
        #expect(try cli.object("episode", "show", "Night Shift/2")["thumbnailText"] as? String == "Two")
        #expect(try cli.must("podcast", "show", "Night Shift").out.contains("EP <number>"))
    }
}
