import PodcastDomain
import Testing
import ThumbnailRenderer

/// Fitted text against golden images, at each of the seven positions on a 240 x 135 canvas: wrapped at
/// its size, and shrunk to fit. Lines line up towards the side the text is placed at, and nothing
/// reaches into the padding. See ``Goldens`` to regenerate them.
@Suite("Golden images of fitted text")
struct FittedTextGoldenTests {
    @Test("wrapped at its size onto two lines, at each of the seven positions", arguments: TextPosition.allCases)
    func wrapped(_ position: TextPosition) throws {
        // Given a title too wide for one line at 22 points, wrapped, at the position
        let settings = TestImages.fitted(.wrap, size: 22, at: position)

        // When it is rendered
        let thumbnail = try render(TestImages.wrappedText, settings)

        // Then it keeps its size on two lines, and matches the golden for that position
        #expect((thumbnail.fontSize, thumbnail.lineCount) == (22, 2))
        try Goldens.check(try thumbnail.encoded(as: .png), matches: "wrap-\(position.rawValue)")
    }

    @Test("shrunk to fit, its own line break kept, at each of the seven positions", arguments: TextPosition.allCases)
    func shrunk(_ position: TextPosition) throws {
        // Given a line of its own and a long one at 48 points, shrunk to fit, at the position
        let settings = TestImages.fitted(.shrink, size: 48, at: position)

        // When it is rendered
        let thumbnail = try render(TestImages.shrunkText, settings)

        // Then it is drawn smaller on three lines (the break kept, the long line wrapped once), and
        // matches the golden for that position
        #expect(thumbnail.fontSize < 48)
        #expect(thumbnail.lineCount == 3)
        try Goldens.check(try thumbnail.encoded(as: .png), matches: "shrink-\(position.rawValue)")
    }

    private func render(_ text: String, _ settings: ThumbnailSettings) throws -> Thumbnail {
        try ThumbnailRenderer.render(
            background: TestImages.background, overlay: nil, settings: settings, text: text, font: TestImages.font)
    }
}
