import Testing
import ThumbnailRenderer

/// PNGs as the renderer writes them: every pixel reads back as written, alpha included when asked for.
@Suite("Encoding")
struct EncodingTests {
    @Test("a PNG with alpha reads back pixel for pixel; an opaque one is written without an alpha channel")
    func roundTrip() throws {
        // Given a picture with every level of red and green, and alpha of 0, 255 and between
        let translucent = PixelBuffer(width: 256, height: 3) { x, y in (UInt8(x), UInt8(255 - x), UInt8(y * 100), [255, 0, 128][y]) }
        let opaque = PixelBuffer(width: 256, height: 3) { x, y in (UInt8(x), UInt8(255 - x), UInt8(y * 100), 255) }

        // When each is written as PNG and read back
        let translucentPNG = try translucent.encoded(as: .png), opaquePNG = try opaque.encoded(as: .png)
        let readTranslucent = try PixelBuffer(decoding: translucentPNG), readOpaque = try PixelBuffer(decoding: opaquePNG)

        // Then the colours come back exact, alpha to libgd's 7 bits, and the colour type says RGBA or RGB
        #expect(readOpaque == opaque)
        #expect(readTranslucent.width == 256 && readTranslucent.height == 3)
        for index in stride(from: 0, to: translucent.rgba.count, by: 4) {
            let alpha = translucent.rgba[index + 3]
            #expect(readTranslucent.rgba[index..<index + 3] == translucent.rgba[index..<index + 3])
            #expect(abs(Int(readTranslucent.rgba[index + 3]) - Int(alpha)) <= 2)
        }
        #expect(translucentPNG[25] == 6)  // IHDR's colour type: RGBA
        #expect(opaquePNG[25] == 2)  // RGB
    }
}
