import Foundation
import Testing

/// Undo and redo as in an editor, said in words.
@Suite("undo and redo: in words, walking back and forward")
struct UndoRedoCLITests {
    private static func title(_ cli: CLI) throws -> String {
        try cli.object("episode", "show", "Garden Hour/3")["title"] as! String
    }

    private static func library() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Garden Hour")
        for title in ["One", "Two", "A"] { try cli.must("episode", "create", "Garden Hour", title) }
        return cli
    }

    @Test("Each command says what it did in words; --verbose adds what the log recorded")
    func words() throws {
        let cli = CLI()
        try cli.must("init")
        #expect(try cli.must("podcast", "create", "Night Shift Radio").out == "Created podcast \"Night Shift Radio\"\n")
        #expect(try cli.must("episode", "create", "Night Shift Radio", "Pilot").out == "Created episode \"Night Shift Radio/1\" (\"Pilot\")\n")
        let retitled = try cli.must("episode", "retitle", "Night Shift Radio/1", "Opener", "--verbose").out
        #expect(retitled.hasPrefix("Retitled episode \"Night Shift Radio/1\" from \"Pilot\" to \"Opener\"\n"))
        #expect(retitled.contains("1 event at position 3 (EpisodeRetitled), command "))
        #expect(try cli.must("episode", "retitle", "Night Shift Radio/1", "Opener").out.hasPrefix("Nothing to change"))
    }

    @Test("A settings change names only what changed, in words, in its reply, history and log")
    func settingsInWords() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift Radio")
        try cli.must("episode", "create", "Night Shift Radio", "Pilot")
        let changed = try cli.must("thumbnail", "settings", "Night Shift Radio/1", "--font-size", "96", "--color", "#ffcc00").out
        #expect(changed == "Changed the thumbnail settings of episode \"Night Shift Radio/1\": size: 72 pt → 96 pt; colour: #FFFFFF → #FFCC00\n", "\(changed)")
        let defaults = try cli.must("podcast", "defaults", "Night Shift Radio", "--canvas", "1280x720").out
        #expect(defaults == "Changed the thumbnail defaults of podcast \"Night Shift Radio\": canvas: 1920x1080 → 1280x720\n", "\(defaults)")
        let history = try cli.must("history", "Night Shift Radio/1").out
        #expect(history.contains("    episode \"Night Shift Radio/1\" thumbnail settings: size: 72 pt → 96 pt; colour: #FFFFFF → #FFCC00\n"), "\(history)")
        let log = try cli.must("log").out
        #expect(log.contains("thumbnail settings size 96 pt; colour #FFCC00, the rest as by default\n"), "\(log)")
        #expect(!log.contains("outlined"))
    }

    @Test("undo and redo say what they did; redo walks forward through the undos, then has nothing left")
    func walk() throws {
        let cli = try Self.library()
        let b = try cli.object("episode", "retitle", "Garden Hour/3", "B")["commandID"] as! String
        try cli.must("episode", "retitle", "Garden Hour/3", "C")

        let undone = try cli.must("undo", "--last").out
        #expect(undone.hasPrefix("Undid: retitled episode \"Garden Hour/3\" from \"B\" to \"C\" (command "))
        #expect(undone.contains(" by tester, just now)"))
        let second = try cli.must("undo", "--last").out
        #expect(second == "Undid: retitled episode \"Garden Hour/3\" from \"A\" to \"B\" (command \(b.prefix(8)) by tester, just now)\n")
        #expect(try Self.title(cli) == "A")

        #expect(try cli.must("redo").out.hasPrefix("Redid: retitled episode \"Garden Hour/3\" from \"A\" to \"B\" (command \(b.prefix(8))"))
        #expect(try Self.title(cli) == "B")
        #expect(try cli.must("redo").out.hasPrefix("Redid: retitled episode \"Garden Hour/3\" from \"B\" to \"C\""))
        #expect(try Self.title(cli) == "C")
        let nothing = try cli.run("redo")
        #expect(nothing.status == 65 && nothing.err.contains("there is no undo left to redo"))
        // An undo after the redos is undone by the next redo.
        try cli.must("undo", "--last")
        #expect(try Self.title(cli) == "B")
        let dry = try cli.must("redo", "--dry-run").out
        #expect(dry.hasPrefix("Would redo: retitled") && dry.contains("would append EpisodeRetitled"))
        #expect(try Self.title(cli) == "B")
        let json = try cli.object("redo")
        #expect((json["described"] as? [String: Any])?["sentence"] as? String == "retitled episode \"Garden Hour/3\" from \"B\" to \"C\"")
        #expect(try Self.title(cli) == "C")
    }

    @Test("A delete says how to undo it; after that undo, earlier commands on the episode can still be undone")
    func deleteAndRestore() throws {
        let cli = try Self.library()
        let retitle = try cli.object("episode", "retitle", "Garden Hour/3", "B")["commandID"] as! String
        let deleted = try cli.must("episode", "delete", "Garden Hour/3").out
        #expect(deleted.hasPrefix("Deleted episode \"Garden Hour/3\" (\"B\")\n"))
        let hint = try #require(deleted.split(separator: "\n").last { $0.hasPrefix("To bring it back: episodic undo ") })
        let undo = hint.split(separator: " ").suffix(2).map(String.init)
        #expect(try cli.run(undo).status == 0)
        #expect(try Self.title(cli) == "B")

        // The delete and its undo left every field as it was: the retitle before them can be undone.
        #expect(try cli.must("undo", String(retitle.prefix(8))).out.hasPrefix("Undid: retitled"))
        #expect(try Self.title(cli) == "A")
        // A later change of the same field still stands in the way, named as people name it.
        let d = try cli.object("episode", "retitle", "Garden Hour/3", "D")["commandID"] as! String
        let refused = try cli.run("undo", String(retitle.prefix(8)))
        #expect(refused.status == 65 && refused.err.contains("changed title of episode \"Garden Hour/3\""), "\(refused.err)")
        // Deleted again and not restored: the deletion stands in the way of undoing a field change.
        try cli.must("episode", "delete", "Garden Hour/3")
        let blocked = try cli.run("undo", String(d.prefix(8)))
        #expect(blocked.status == 65 && blocked.err.contains("changed existence of episode \"Garden Hour/3\""), "\(blocked.err)")
    }

    @Test("New work forgets the undos before it: a spare redo refuses and names the undo; undo --last takes back a redo")
    func redoNeverReachesPastNewWork() throws {
        // Given a podcast's deletion, undone, then fifteen other changes
        let cli = try Self.library()
        try cli.must("podcast", "create", "Show 6")
        try cli.must("episode", "create", "Show 6", "Kept")
        try cli.must("podcast", "delete", "Show 6")
        let undo = try #require((try cli.object("undo", "--last")["outcome"] as? [String: Any])?["commandID"] as? String)
        #expect(try cli.run("podcast", "show", "Show 6").status == 0)
        for number in 1...15 { try cli.must("episode", "retitle", "Garden Hour/3", "Take \(number)") }

        // When redo is asked for
        let spare = try cli.run("redo")

        // Then it refuses, says why, names the undo for the deliberate case, and the podcast stays
        #expect(spare.status == 65, "\(spare.out)\(spare.err)")
        #expect(spare.err.contains("changes were made after undo \(undo.prefix(8))"), "\(spare.err)")
        #expect(spare.err.contains("`episodic redo \(undo.prefix(8)) --force`"), "\(spare.err)")
        #expect(try cli.run("podcast", "show", "Show 6").status == 0)
        let named = try cli.run("redo", String(undo.prefix(8)))
        #expect(named.status == 65 && named.err.contains("changes were made after undo"), "\(named.err)")

        // When it is asked for by id, with --force
        let forced = try cli.must("redo", String(undo.prefix(8)), "--force").out
        #expect(forced.hasPrefix("Redid: deleted podcast \"Show 6\""), "\(forced)")
        #expect(try cli.run("podcast", "show", "Show 6").status != 0)

        // Then undo --last takes that redo back, and says so, rather than the newest retitle
        let back = try cli.must("undo", "--last").out
        #expect(back.hasPrefix("Undid the redo: "), "\(back)")
        #expect(try cli.run("podcast", "show", "Show 6").status == 0)
        #expect(try Self.title(cli) == "Take 15")
        // And that undo can be redone at once, and not after another change
        #expect(try cli.must("redo", "--dry-run").out.hasPrefix("Would redo: deleted podcast \"Show 6\""))
        try cli.must("episode", "retitle", "Garden Hour/3", "Take 16")
        #expect(try cli.run("redo").status == 65)
    }

    @Test("redo of a command that is not an undo refuses and says how to undo it")
    func redoOfAChange() throws {
        let cli = try Self.library()
        let change = try cli.object("episode", "retitle", "Garden Hour/3", "B")["commandID"] as! String
        let refused = try cli.run("redo", String(change.prefix(8)))
        #expect(refused.status == 65 && refused.err.contains("is not an undo") && refused.err.contains("`episodic undo \(change.prefix(8))`"), "\(refused.err)")
        #expect(try Self.title(cli) == "B")
    }
}
