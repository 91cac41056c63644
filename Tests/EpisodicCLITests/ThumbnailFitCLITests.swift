import Foundation
import Testing
import ThumbnailRenderer

/// Text that fits, overlays placed as designed, and warnings for poor inputs, through the built binary.
@Suite("Thumbnail fit and placement from the CLI")
struct ThumbnailFitCLITests {
    static let longTitle = "Interview: The Lighthouse Keeper Who Never Slept For Forty Years"

    /// A library whose episode Show/1 has a 1920 x 1080 background and the long title at 160 pt, top left.
    static func longTitleAt160() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "Pilot")
        try cli.must("thumbnail", "background", "Show/1", try image(width: 1920, height: 1080, in: cli, named: "studio.png"))
        try cli.must("thumbnail", "text", "Show/1", longTitle)
        try cli.must("thumbnail", "settings", "Show/1", "--font-size", "160", "--position", "top-left")
        return cli
    }

    /// A PNG of `width` x `height` pixels in the test's folder: opaque grey, or with `alpha`, a translucent logo.
    static func image(width: Int, height: Int, in cli: CLI, named name: String, alpha: UInt8 = 255) throws -> String {
        let pixels = PixelBuffer(width: width, height: height) { x, y in (UInt8(x % 200), 90, UInt8(y % 200), alpha) }
        let path = cli.folder + "/" + name
        try Data(try pixels.encoded(as: .png)).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a long title shrinks to fit by default, and render and episode show say the size drawn")
    func shrinksByDefault() throws {
        // Given the long title at 160 pt on a new episode (whose fit is shrink, the default)
        let cli = try Self.longTitleAt160()
        let settings = try cli.object("episode", "show", "Show/1")["thumbnailSettings"] as? [String: Any]
        #expect(settings?["textFit"] as? String == "shrink")

        // When it is rendered
        let rendered = try cli.must("thumbnail", "render", "Show/1")
        let drawn = try #require(try Self.thumbnail(cli)?["drawnFontSize"] as? Double)

        // Then it is drawn smaller than 160 pt, and both the render and episode show say at what size
        #expect(drawn < 160 && drawn >= 12, "\(drawn)")
        let size = drawn == drawn.rounded() ? String(Int(drawn)) : String(drawn)
        #expect(rendered.out.contains("Text drawn at \(size) pt (shrunk from 160 pt to fit)."), "\(rendered.out)")
        #expect(try cli.must("episode", "show", "Show/1").out.contains("text drawn at \(size) pt"))
        #expect(try cli.must("episode", "show", "Show/1").out.contains("text fit:"))
    }

    @Test("wrap refuses text that cannot fit at its size, writing nothing; none draws it at its size")
    func wrapRefusesNoneDraws() throws {
        let cli = try Self.longTitleAt160()

        // Given wrap at 160 pt, a render is refused with 65, saying what would fit, and nothing is written
        try cli.must("thumbnail", "settings", "Show/1", "--fit", "wrap")
        let head = try cli.head()
        let refused = try cli.run("thumbnail", "render", "Show/1")
        #expect(refused.status == 65, "\(refused.err)")
        #expect(refused.err.contains("160 pt"), "\(refused.err)")
        #expect(try cli.head() == head)

        // And with a size that fits, wrap renders at that size
        try cli.must("thumbnail", "settings", "Show/1", "--font-size", "60")
        #expect(try cli.object("thumbnail", "render", "Show/1")["drawnFontSize"] as? Double == 60)

        // Given none, the text is drawn at the size set, whatever falls off
        try cli.must("thumbnail", "settings", "Show/1", "--fit", "none", "--font-size", "160")
        let none = try cli.object("thumbnail", "render", "Show/1")
        #expect(none["drawnFontSize"] as? Double == 160)
    }

    @Test("thumbnail text takes line breaks, from the command line and from a script")
    func lineBreaks() throws {
        let cli = try Self.longTitleAt160()
        try cli.must("thumbnail", "text", "Show/1", "The Lighthouse Keeper\nPart one")
        #expect(try cli.object("episode", "show", "Show/1")["thumbnailText"] as? String == "The Lighthouse Keeper\nPart one")
        let line = #"{"command":"thumbnail.text","episode":"Show/1","text":"Night\nShift"}"#
        try cli.must("submit", input: line + "\n")
        #expect(try cli.object("episode", "show", "Show/1")["thumbnailText"] as? String == "Night\nShift")
        try cli.must("thumbnail", "render", "Show/1")
    }

    @Test("a background smaller than the canvas and a cropped overlay are accepted with warnings, listed by episode show")
    func warnings() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "Pilot")

        // A 10 x 10 background: accepted, with a warning naming both sizes, in words and in JSON
        let tiny = try Self.image(width: 10, height: 10, in: cli, named: "tiny.png")
        let background = try cli.run("thumbnail", "background", "Show/1", tiny, "--json")
        #expect(background.status == 0, "\(background.err)")
        let warnings = try #require((try background.json() as? [String: Any])?["thumbnailWarnings"] as? [[String: Any]])
        #expect(warnings.map { $0["kind"] as? String } == ["backgroundSmallerThanCanvas"])
        #expect((warnings.first?["message"] as? String)?.contains("10 x 10 pixels, smaller than the 1920 x 1080 canvas") == true)

        // A square logo is drawn whole by default: no warning
        let logo = try Self.image(width: 300, height: 300, in: cli, named: "logo.png", alpha: 128)
        try cli.must("episode", "create", "Show", "Whole")
        let whole = try cli.run("thumbnail", "overlay", "Show/2", logo)
        #expect(whole.status == 0 && !whole.err.contains("warning"), "\(whole.err)")

        // Under fill: accepted, with a warning that it is cropped, and what to do
        try cli.must("thumbnail", "settings", "Show/1", "--overlay-placement", "fill")
        let overlay = try cli.run("thumbnail", "overlay", "Show/1", logo)
        #expect(overlay.status == 0)
        #expect(overlay.err.contains("warning: the overlay is 300 x 300 pixels"), "\(overlay.err)")
        #expect(overlay.err.contains("840 pixels of its height") && overlay.err.contains("--overlay-placement fit"), "\(overlay.err)")

        // Both are listed by episode show, and said again by a render
        let shown = try cli.must("episode", "show", "Show/1").out
        #expect(shown.contains("warning: the background is 10 x 10 pixels") && shown.contains("warning: the overlay is 300 x 300"))
        let render = try cli.run("thumbnail", "render", "Show/1")
        #expect(render.status == 0 && render.err.components(separatedBy: "warning:").count == 3, "\(render.err)")

        // Drawn whole, the overlay is no longer cropped: only the background's warning stays
        try cli.must("thumbnail", "settings", "Show/1", "--overlay-placement", "fit")
        let after = try cli.must("episode", "show", "Show/1").out
        #expect(after.contains("warning: the background") && !after.contains("warning: the overlay"))
    }

    @Test("an overlay at its own size, scaled and placed, renders; the podcast's default placement reaches new episodes")
    func originalPlacement() throws {
        let cli = try Self.longTitleAt160()
        let logo = try Self.image(width: 300, height: 300, in: cli, named: "logo.png", alpha: 200)

        // Given podcast defaults that draw the default overlay at half its size, bottom right
        try cli.must(
            "podcast", "defaults", "Show", "--overlay-placement", "original", "--overlay-scale", "0.5",
            "--overlay-position", "bottom-right")
        try cli.must("podcast", "overlay", "Show", logo)

        // When an episode is created, it copies the overlay with its placement, and renders
        try cli.must("episode", "create", "Show", "Second")
        let settings = try #require(try cli.object("episode", "show", "Show/2")["thumbnailSettings"] as? [String: Any])
        #expect(settings["overlayPlacement"] as? String == "original" && settings["overlayScale"] as? Double == 0.5)
        #expect(settings["overlayPositionX"] as? Double == 1 && settings["overlayPositionY"] as? Double == 1)
        try cli.must("thumbnail", "background", "Show/2", try Self.image(width: 1920, height: 1080, in: cli, named: "bg.png"))
        let render = try cli.run("thumbnail", "render", "Show/2")
        #expect(render.status == 0 && !render.err.contains("warning"), "\(render.err)")
        #expect(try cli.must("episode", "show", "Show/2").out.contains("overlay drawn:  original x0.5 at bottom-right"))

        // A scale out of range is a usage error, and nothing is written
        let head = try cli.head()
        let refused = try cli.run("thumbnail", "settings", "Show/2", "--overlay-scale", "20")
        #expect(refused.status == 64 && refused.err.contains("0.05"), "\(refused.err)")
        #expect(try cli.head() == head)
    }

    static func thumbnail(_ cli: CLI) throws -> [String: Any]? {
        try cli.object("episode", "show", "Show/1")["thumbnail"] as? [String: Any]
    }
}
