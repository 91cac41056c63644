import PodcastDomain
import Testing
import ThumbnailRenderer

/// The renderer against golden images: each text position, each scaling mode, the outline off, and an
/// overlay in each placement, on a 160 x 90 canvas. See ``Goldens`` to regenerate them.
@Suite("Golden images")
struct GoldenImageTests {
    @Test("the text at each of the seven positions", arguments: TextPosition.allCases)
    func position(_ position: TextPosition) throws {
        // Given the test background, aspect fill, outlined text at the position
        let settings = TestImages.settings(position)

        // When it is rendered
        let png = try render(settings)

        // Then it matches the golden for that position
        try Goldens.check(png, matches: "position-\(position.rawValue)")
    }

    @Test("the background in each scaling mode", arguments: BackgroundScaling.allCases)
    func scaling(_ scaling: BackgroundScaling) throws {
        try Goldens.check(try render(TestImages.settings(.bottomRight, scaling: scaling)), matches: "scaling-\(scaling.rawValue)")
    }

    @Test("the text without its outline")
    func outlineOff() throws {
        try Goldens.check(try render(TestImages.settings(outline: false)), matches: "outline-off")
    }

    @Test("an overlay drawn over the background with its alpha, under the text")
    func overlay() throws {
        try Goldens.check(try render(TestImages.settings(.topLeft), overlay: TestImages.overlay), matches: "overlay")
    }

    /// A placement of the overlay, and its golden's name.
    struct OverlayScene: Sendable, CustomTestStringConvertible {
        let placement: OverlayPlacement
        var scale = 1.0
        var position = TextPosition.center

        var golden: String {
            placement == .original ? "overlay-original-\(position.rawValue)-\(scale)" : "overlay-\(placement.rawValue)"
        }
        var testDescription: String { golden }
    }

    @Test("an overlay fitted whole, or at its own size scaled and placed at a preset (cut where it overflows)", arguments: [
        OverlayScene(placement: .fit), OverlayScene(placement: .original, scale: 0.25, position: .topLeft),
        OverlayScene(placement: .original, scale: 0.3, position: .bottomRight), OverlayScene(placement: .original),
    ])
    func overlayPlacement(_ scene: OverlayScene) throws {
        // Given the test background and overlay, placed and scaled as the scene says
        var settings = TestImages.settings()
        settings.overlayPlacement = scene.placement
        settings.overlayScale = scene.scale
        settings.placeOverlay(at: scene.position)

        // When it is rendered without text
        let png = try render(settings, overlay: TestImages.overlay, text: "")

        // Then it matches the golden for that placement
        try Goldens.check(png, matches: scene.golden)
    }

    @Test("the comparison catches text moved by a few pixels, or drawn at another preset")
    func movedTextFails() throws {
        // Given the top-left golden
        let golden = try Goldens.pixels("position-topLeft")

        // When the text is drawn 4 pixels further right, or at the top centre
        var nudged = TestImages.settings(.topLeft)
        nudged.horizontalPadding += 4
        let moved = try PixelBuffer(decoding: try render(nudged))
        let elsewhere = try PixelBuffer(decoding: try render(TestImages.settings(.topCenter)))

        // Then neither passes as the golden, while the golden's own scene does
        #expect(!PixelDifference(golden, moved, .goldens).isWithin(.goldens))
        #expect(!PixelDifference(golden, elsewhere, .goldens).isWithin(.goldens))
        let same = try PixelBuffer(decoding: try render(TestImages.settings(.topLeft)))
        #expect(PixelDifference(golden, same, .goldens).isWithin(.goldens))
    }

    private func render(_ settings: ThumbnailSettings, overlay: [UInt8]? = nil, text: String = TestImages.text) throws -> [UInt8] {
        try ThumbnailRenderer.render(
            background: TestImages.background, overlay: overlay, settings: settings, text: text, font: TestImages.font
        ).encoded(as: .png)
    }
}
