import Foundation
import Testing

/// A podcast's default background, else its artwork, is where a new episode's thumbnail is drawn, so
/// that a new episode renders without a background of its own.
@Suite("Default backgrounds")
struct DefaultBackgroundCLITests {
    @Test("a new episode starts on the podcast's default background, else its artwork, and renders at once; show says which")
    func newEpisodesStartOnTheDefault() throws {
        // Given a podcast with artwork and no default background
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("podcast", "artwork", "Night Shift", ThumbnailCLITests.fixture("scaling-aspectFill.png"))

        // When an episode is made, it renders without a background of its own, on the artwork
        try cli.must("episode", "create", "Night Shift", "One")
        let rendered = try cli.run("thumbnail", "render", "Night Shift/1")
        #expect(rendered.status == 0 && rendered.out.contains("Drawn on the podcast's artwork."), "\(rendered.out)")
        let one = try cli.must("episode", "show", "Night Shift/1").out
        #expect(one.contains("background") && one.contains("(the podcast's artwork)"), "\(one)")
        #expect(try cli.must("podcast", "show", "Night Shift").out.contains("the artwork"))

        // When the podcast has a default background, the next episode starts on it; the first keeps the artwork
        try cli.must("podcast", "background", "Night Shift", ThumbnailCLITests.fixture("overlay.png"))
        try cli.must("episode", "create", "Night Shift", "Two")
        let two = try cli.must("episode", "show", "Night Shift/2").out
        #expect(two.contains("background") && !two.contains("(the podcast's artwork)"), "\(two)")
        #expect(try cli.must("episode", "show", "Night Shift/1").out.contains("(the podcast's artwork)"))
        let second = try cli.run("thumbnail", "render", "Night Shift/2")
        #expect(second.status == 0 && !second.out.contains("artwork"), "\(second.out)")
        let history = try cli.must("history", "Night Shift").out
        #expect(history.contains("default background"), "\(history)")

        // And cleared (or undone), new episodes start on the artwork again
        try cli.must("undo", "--last")
        try cli.must("undo", "--last")
        try cli.must("undo", "--last")
        try cli.must("episode", "create", "Night Shift", "Three")
        #expect(try cli.must("episode", "show", "Night Shift/2").out.contains("(the podcast's artwork)"))
    }

    @Test("without a default background or artwork a new episode has none: render says to set one, and todo lists it")
    func neither() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Bare")
        try cli.must("episode", "create", "Bare", "One")
        let render = try cli.run("thumbnail", "render", "Bare/1")
        #expect(render.status != 0 && render.err.contains("background"), "\(render.err)")
        #expect(try cli.must("todo").out.contains("no thumbnail, no background"))
        #expect(try cli.run("podcast", "background", "Bare").status == 64, "a file or --clear")
    }
}
