import PodcastDomain
import Testing
import ThumbnailRenderer

/// Same inputs, same bytes: what lets a digest of the inputs stand for the output.
@Suite("Determinism")
struct DeterminismTests {
    @Test("rendering the same inputs twice gives the same bytes, full size and stored, PNG and JPEG")
    func sameInputsSameBytes() throws {
        // Given one scene with every input: background, overlay, outlined text
        func render() throws -> Thumbnail {
            try ThumbnailRenderer.render(
                background: TestImages.background, overlay: TestImages.overlay, settings: TestImages.settings(.bottomLeft),
                text: TestImages.text, font: TestImages.font)
        }

        // When it is rendered twice
        let first = try render(), second = try render()

        // Then every encoding is byte for byte the same
        #expect(try first.encoded(as: .png) == second.encoded(as: .png))
        #expect(try first.encoded(as: .jpeg) == second.encoded(as: .jpeg))
        #expect(try first.stored() == second.stored())
    }
}
