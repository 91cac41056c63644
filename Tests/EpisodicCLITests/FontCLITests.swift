import Foundation
import Testing
import ThumbnailRenderer

/// `font import`, `font list` and `font remove` through the built binary, and fonts in use.
@Suite("Fonts from the CLI")
struct FontCLITests {
    static let dejaVuBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    @Test("a font imported under a name is listed, chosen in the settings in any case, and drawn with")
    func importUseRender() throws {
        // Given a library with an episode that has a background,
        let cli = try ThumbnailCLITests.showWithBackground()

        // when a font is imported under a name,
        let imported = try cli.object("font", "import", Self.dejaVuBold, "--name", "Title Font")
        #expect(imported["events"] as? [String] == ["FontImported"])

        // then it is listed, with its file as a blob,
        let listed = try cli.list("font", "list")
        #expect(listed.map { $0["name"] as? String } == ["Title Font"])
        let size = try #require(FileManager.default.attributesOfItem(atPath: Self.dejaVuBold)[.size] as? Int)
        #expect((listed.first?["font"] as? [String: Any])?["bytes"] as? Int == size)
        #expect(try cli.must("font", "list").out.contains("Title Font"))

        // the settings may choose it, in any case, and keep the name it was imported under,
        try cli.must("thumbnail", "settings", "Show/1", "--font", "title FONT")
        let settings = try cli.object("episode", "show", "Show/1")["thumbnailSettings"] as? [String: Any]
        #expect(settings?["fontName"] as? String == "Title Font")

        // and the thumbnail is rendered and exported with it.
        #expect(try cli.object("thumbnail", "render", "Show/1")["events"] as? [String] == ["ThumbnailRendered"])
        let list = try #require(try cli.list("episode", "list", "Show").first)
        #expect(list["hasThumbnail"] as? Bool == true && list["thumbnailOutdated"] as? Bool == false)
        let exported = cli.folder + "/titled.png"
        try cli.must("thumbnail", "export", "Show/1", exported)
        #expect(try ImageProbe.probe(Array(try Data(contentsOf: URL(fileURLWithPath: exported)))).width == 1920)

        // Without --name, the font takes its file's name; the same file again is refused, naming it.
        try cli.must("font", "import", Self.dejaVu)
        #expect(try cli.list("font", "list").map { $0["name"] as? String } == ["DejaVuSans", "Title Font"])
        let again = try cli.run("font", "import", Self.dejaVuBold, "--name", "Bold Again")
        #expect(again.status == 65 && again.err.contains("already imported, as \"Title Font\""), "\(again.err)")

        // While the episode uses it, removing it is refused, naming the episode; --force removes it and
        // marks the thumbnail drawn in it outdated, saying why.
        let inUse = try cli.run("font", "remove", "TITLE font")
        #expect(inUse.status == 65 && inUse.err.contains("used by the thumbnail settings of episode Show/1"), "\(inUse.err)")
        let forced = try cli.object("font", "remove", "TITLE font", "--force")
        #expect(forced["events"] as? [String] == ["FontRemoved", "ThumbnailFontRemoved"])
        #expect(try cli.list("font", "list").map { $0["name"] as? String } == ["DejaVuSans"])
        #expect(try cli.list("episode", "list", "Show").first?["thumbnailOutdated"] as? Bool == true)
        #expect(try cli.list("episode", "list", "Show", "--outdated", "thumbnail").count == 1)
        #expect(try cli.must("episode", "show", "Show/1").out.contains("(outdated: its font was removed since)"))
        let refused = try cli.run("thumbnail", "render", "Show/1")
        #expect(refused.status == 65 && refused.err.contains("no font named \"Title Font\""), "\(refused.err)")

        // Undoing the removal brings the font back and the thumbnail with it, current again.
        try cli.must("undo", try #require(forced["commandID"] as? String))
        #expect(try cli.list("font", "list").map { $0["name"] as? String } == ["DejaVuSans", "Title Font"])
        #expect(try cli.list("episode", "list", "Show").first?["thumbnailOutdated"] as? Bool == false)
    }

    @Test("a file that is not a font, a taken name, an unknown font to remove or to use: each refused, nothing appended")
    func refusals() throws {
        let cli = try ThumbnailCLITests.showWithBackground()
        try cli.must("font", "import", Self.dejaVuBold, "--name", "Bold")
        let text = try cli.write("Just some words, not a font.\n", to: "font.ttf")
        let head = try cli.head()

        let refusals: [(arguments: [String], status: Int32, message: String)] = [
            (["font", "import", text, "--name", "Words"], 65, "not a font that can be drawn with"),
            (["font", "import", cli.folder + "/missing.ttf"], 66, "no such file"),
            (["font", "import", Self.dejaVuBold, "--name", " BOLD "], 65, "a font named \"Bold\" is already imported"),
            (["font", "import", Self.dejaVuBold, "--name", "   "], 65, "font name is empty"),
            (["font", "import", "-"], 64, "--name"),
            (["font", "remove", "Nope"], 65, "no font named \"Nope\" is imported"),
            (["thumbnail", "settings", "Show/1", "--font", "Nope"], 65, "no font named \"Nope\" is imported"),
            (["podcast", "defaults", "Show", "--font", "Nope"], 65, "no font named \"Nope\" is imported"),
        ]
        for refusal in refusals {
            let result = try cli.run(refusal.arguments)
            #expect(result.status == refusal.status, "\(refusal.arguments): \(result.err)")
            #expect(result.err.contains(refusal.message), "\(refusal.arguments): \(result.err)")
        }
        #expect(try cli.head() == head, "nothing was appended")
        #expect(try cli.list("font", "list").map { $0["name"] as? String } == ["Bold"])
    }

    @Test("undo --last takes back a font import, and undoing the undo brings it back")
    func undoImport() throws {
        // Given a font just imported,
        let cli = CLI()
        try cli.must("init")
        try cli.must("font", "import", Self.dejaVuBold, "--name", "Bold")

        // when the last command is undone,
        let undo = try cli.object("undo", "--last")

        // then the font is removed,
        #expect(undo["outcome"].flatMap { ($0 as? [String: Any])?["events"] as? [String] } == ["FontRemoved"])
        #expect(try cli.list("font", "list").isEmpty)
        #expect(try cli.must("font", "list").out.contains("No fonts imported"))

        // and undoing that undo imports it again, from the same blob.
        try cli.must("undo", undo["outcome"].flatMap { ($0 as? [String: Any])?["commandID"] as? String } ?? "")
        #expect(try cli.list("font", "list").map { $0["name"] as? String } == ["Bold"])
    }
}
