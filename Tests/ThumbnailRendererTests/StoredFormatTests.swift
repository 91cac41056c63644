import PodcastDomain
import Testing

@testable import ThumbnailRenderer

/// The format a thumbnail is stored in follows its pixels: JPEG where every one is opaque, as every
/// render is, PNG with its alpha where any is not.
@Suite("The stored format")
struct StoredFormatTests {
    @Test("a full HD photograph with an overlay and text is stored as JPEG, a fraction of its PNG, showing the same picture")
    func overlaidPhotoIsJPEG() throws {
        // Given a photograph of the canvas's size, the overlay with its transparent parts, and outlined text
        var settings = TestImages.settings()
        (settings.canvasWidth, settings.canvasHeight, settings.fontSize) = (1920, 1080, 72)
        let photo = try TestImages.photo(width: 1920, height: 1080).encoded(as: .jpeg)
        let thumbnail = try ThumbnailRenderer.render(
            background: photo, overlay: TestImages.overlay, settings: settings, text: "EP 42", font: TestImages.font)

        // When it is stored
        let stored = try thumbnail.stored()

        // Then it is a JPEG, as its bytes say, a fifth of the PNG of the same pixels or less, and decoded
        // it is the shrunk render within JPEG's loss
        #expect(stored.format == .jpeg)
        #expect(try ImageProbe.probe(stored.bytes) == ImageInfo(format: .jpeg, width: 1024, height: 576))
        let small = try thumbnail.shrunkForStorage()
        let png = try small.encoded(as: .png)
        #expect(stored.bytes.count * 5 <= png.count, "JPEG \(stored.bytes.count) bytes, PNG \(png.count)")
        let difference = try PixelDifference(PixelBuffer(small.image), PixelBuffer(decoding: stored.bytes), .jpeg)
        #expect(difference.isWithin(.jpeg), "\(difference)")
    }

    @Test("an image with any transparency is stored as PNG, its alpha kept through shrinking")
    func transparencyIsPNG() throws {
        // Given an image twice the stored size, opaque red above and transparent below, and one of the
        // stored size, opaque but for one half-transparent pixel
        let halves = PixelBuffer(width: 2048, height: 1152) { _, y in y < 576 ? (200, 40, 40, 255) : (0, 0, 0, 0) }
        var onePixel = TestImages.photo(width: 160, height: 90)
        onePixel.rgba[4 * (45 * 160 + 80) + 3] = 128

        // When each is stored
        let storedHalves = try Self.thumbnail(halves).stored()
        let storedPixel = try Self.thumbnail(onePixel).stored()

        // Then both are PNGs with an alpha channel, the halves shrunk to 1024 x 576 with their alpha, the
        // one pixel kept half transparent
        #expect((storedHalves.format, storedHalves.width, storedHalves.height) == (.png, 1024, 576))
        #expect(storedHalves.bytes[25] == 6, "IHDR's colour type: RGBA")
        let halvesBack = try PixelBuffer(decoding: storedHalves.bytes)
        #expect(halvesBack.rgba[4 * (100 * 1024 + 500) ..< 4 * (100 * 1024 + 500) + 4] == [200, 40, 40, 255])
        #expect(halvesBack.rgba[4 * (400 * 1024 + 500) + 3] == 0)
        #expect(storedPixel.format == .png && storedPixel.bytes[25] == 6)
        let pixelBack = try PixelBuffer(decoding: storedPixel.bytes)
        #expect(abs(Int(pixelBack.rgba[4 * (45 * 160 + 80) + 3]) - 128) <= 2)

        // And the same images made opaque are stored as JPEG
        var opaque = onePixel
        opaque.rgba[4 * (45 * 160 + 80) + 3] = 255
        #expect(try Self.thumbnail(opaque).stored().format == .jpeg)
    }

    /// `pixels` as a drawn thumbnail.
    static func thumbnail(_ pixels: PixelBuffer) throws -> Thumbnail {
        Thumbnail(image: try GDImage.decoded(try pixels.encoded(as: .png)), fontSize: 12, lineCount: 0)
    }
}
