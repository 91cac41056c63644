import Testing
import ThumbnailRenderer

/// The probe the CLI runs before storing an image: format and size of good images, a typed error with a
/// message for people for bad ones.
@Suite("Image probe")
struct ImageProbeTests {
    @Test("a PNG and a JPEG give their format and size")
    func goodImages() throws {
        // Given the test background as PNG and as JPEG
        let jpeg = try PixelBuffer(decoding: TestImages.background).encoded(as: .jpeg)

        // When they are probed, then their format and size come back
        #expect(try ImageProbe.probe(TestImages.background) == ImageInfo(format: .png, width: 96, height: 128))
        #expect(try ImageProbe.probe(jpeg) == ImageInfo(format: .jpeg, width: 96, height: 128))
    }

    @Test("a truncated PNG or JPEG is damaged, not half a picture")
    func truncated() {
        #expect(throws: ImageError.damaged(.png)) { try ImageProbe.probe(BadImages.truncatedPNG) }
        #expect(throws: ImageError.damaged(.jpeg)) { try ImageProbe.probe(BadImages.truncatedJPEG) }
        #expect(throws: ImageError.damaged(.png)) { try ImageProbe.probe(Array(TestImages.background.prefix(20))) }
    }

    @Test("a file that is not an image, or is empty, is not an image")
    func notAnImage() {
        #expect(throws: ImageError.notAnImage) { try ImageProbe.probe(BadImages.text) }
        #expect(throws: ImageError.notAnImage) { try ImageProbe.probe([]) }
    }

    @Test("a 0 x 0 image has nothing to draw")
    func empty() {
        #expect(throws: ImageError.empty(width: 0, height: 0)) { try ImageProbe.probe(BadImages.pngHeader(width: 0, height: 0)) }
        #expect(throws: ImageError.empty(width: 640, height: 0)) { try ImageProbe.probe(BadImages.pngHeader(width: 640, height: 0)) }
    }

    @Test("a 20000 x 20000 image is refused from its header, before its pixels are allocated")
    func tooLarge() {
        #expect(throws: ImageError.tooLarge(width: 20_000, height: 20_000)) {
            try ImageProbe.probe(BadImages.pngHeader(width: 20_000, height: 20_000))
        }
        // Each side within 16384 but 128 megapixels in all
        #expect(throws: ImageError.tooLarge(width: 16_000, height: 8_000)) {
            try ImageProbe.probe(BadImages.pngHeader(width: 16_000, height: 8_000))
        }
        // At the limits, only the missing pixels are wrong
        #expect(throws: ImageError.damaged(.png)) { try ImageProbe.probe(BadImages.pngHeader(width: 16_384, height: 4_096)) }
    }

    @Test("each message says what is wrong and what to do")
    func messages() {
        #expect(ImageError.notAnImage.description
            == "this is not a PNG or JPEG image. Export the picture as PNG or JPEG and try again.")
        #expect(ImageError.damaged(.jpeg).description.hasPrefix("this JPEG image is damaged or cut short"))
        #expect(ImageError.empty(width: 0, height: 0).description.contains("at least one pixel on each side"))
        #expect(ImageError.tooLarge(width: 20_000, height: 20_000).description
            == "this image is 20000 x 20000 pixels, larger than the 16384 pixels a side and 67 megapixels in all "
                + "that can be used. Scale it down (the largest canvas is 8192 pixels a side) and try again.")
    }
}
