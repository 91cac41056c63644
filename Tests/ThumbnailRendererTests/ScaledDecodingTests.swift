import PodcastDomain
import Testing

@testable import ThumbnailRenderer

/// JPEGs decoded at 1/2, 1/4 or 1/8 of their size when the canvas draws them smaller: how small, and
/// that it draws the same picture and refuses the same damage as decoding them whole.
@Suite("Scaled decoding")
struct ScaledDecodingTests {
    let fullHD = PixelRect(x: 0, y: 0, width: 1920, height: 1080)

    @Test("a JPEG is decoded as small as leaves a pixel for each one drawn; a PNG whole")
    func denominators() throws {
        func denominator(_ format: ImageFormat, _ width: Int, _ height: Int, _ placement: Placement) -> Int {
            ImageHeader(format: format, width: width, height: height, orientation: .up).decodeDenominator(for: placement)
        }
        // 4000 x 3000 filling full HD shows 4000 x 2250: half of that still covers 1920 x 1080
        #expect(denominator(.jpeg, 4000, 3000, BackgroundScaling.aspectFill.placement(width: 4000, height: 3000, on: fullHD)) == 2)
        // Fitted, it is drawn 1440 x 1080: a quarter (1000 x 750) would not cover that
        #expect(denominator(.jpeg, 4000, 3000, BackgroundScaling.aspectFit.placement(width: 4000, height: 3000, on: fullHD)) == 2)
        // On the goldens' 160 x 90 canvas, an eighth (500 x 282 shown) still does
        let small = PixelRect(x: 0, y: 0, width: 160, height: 90)
        #expect(denominator(.jpeg, 4000, 3000, BackgroundScaling.aspectFill.placement(width: 4000, height: 3000, on: small)) == 8)
        // At the canvas's size, or as a PNG, it is decoded whole
        #expect(denominator(.jpeg, 1920, 1080, BackgroundScaling.aspectFill.placement(width: 1920, height: 1080, on: fullHD)) == 1)
        #expect(denominator(.png, 4000, 3000, BackgroundScaling.aspectFill.placement(width: 4000, height: 3000, on: small)) == 1)
        // An overlay at a quarter of its own size: a quarter
        var settings = ThumbnailSettings.defaults
        (settings.overlayPlacement, settings.overlayScale) = (.original, 0.25)
        let overlay = try #require(settings.placement(ofOverlayWidth: 1600, height: 800))
        #expect(denominator(.jpeg, 1600, 800, overlay) == 4)
    }

    @Test("a placement moves to the decoded pixels: divided, rounded, kept inside")
    func scaledPlacement() {
        let placement = Placement(from: PixelRect(x: 0, y: 375, width: 4000, height: 2250), to: fullHD)
        #expect(placement.scaledDown(by: 2, within: PixelRect(x: 0, y: 0, width: 2000, height: 1500))
            == Placement(from: PixelRect(x: 0, y: 188, width: 2000, height: 1125), to: fullHD))
        let odd = Placement(from: PixelRect(x: 0, y: 0, width: 1001, height: 3), to: PixelRect(x: 0, y: 0, width: 100, height: 1))
        #expect(odd.scaledDown(by: 8, within: PixelRect(x: 0, y: 0, width: 126, height: 1))
            == Placement(from: PixelRect(x: 0, y: 0, width: 125, height: 1), to: odd.to))
    }

    @Test("decoded at 1/2, 1/4 and 1/8, a JPEG is the whole decode shrunk, within the goldens' tolerance",
          arguments: [2, 4, 8])
    func samePicture(denominator: Int) throws {
        // Given a photo-like 640 x 360 JPEG
        let jpeg = try TestImages.photo(width: 640, height: 360).encoded(as: .jpeg)
        let header = try ImageProbe.header(jpeg)

        // When it is decoded scaled, and decoded whole then resampled to the same size
        let scaled = try GDImage.decoded(jpeg, header: header, scaledDownBy: denominator)
        let whole = try GDImage.decoded(jpeg, header: header)
        let shrunk = try #require(GDImage(width: scaled.width, height: scaled.height))
        try shrunk.draw(whole, from: whole.bounds, to: shrunk.bounds)

        // Then both are the same picture
        #expect((scaled.width, scaled.height) == (640 / denominator, 360 / denominator))
        let difference = PixelDifference(PixelBuffer(shrunk), PixelBuffer(scaled), .goldens)
        #expect(difference.isWithin(.goldens), "\(difference)")
    }

    @Test("a large JPEG background renders as the same picture given as a PNG, which is decoded whole")
    func sameRender() throws {
        // Given a 1280 x 720 photo as JPEG, and its pixels as PNG
        let jpeg = try TestImages.photo(width: 1280, height: 720).encoded(as: .jpeg)
        let png = try PixelBuffer(decoding: jpeg).encoded(as: .png)

        // When each is the background of a 160 x 90 thumbnail (the JPEG decoded at an eighth)
        func render(_ background: [UInt8]) throws -> PixelBuffer {
            try PixelBuffer(decoding: ThumbnailRenderer.render(
                background: background, overlay: nil, settings: TestImages.settings(), text: "", font: TestImages.font
            ).encoded(as: .png))
        }

        // Then the two renders are the same
        let difference = PixelDifference(try render(png), try render(jpeg), .goldens)
        #expect(difference.isWithin(.goldens), "\(difference)")
    }

    @Test("a JPEG damaged inside (a bad Huffman table) is refused at every scale, and by the renderer")
    func damaged() throws {
        // Given the test background as JPEG, its first Huffman table's class and index made impossible
        var jpeg = try PixelBuffer(decoding: TestImages.background).encoded(as: .jpeg)
        let table = try #require((2..<jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC4 })
        jpeg[table + 4] = 0x5F
        let header = try ImageProbe.header(jpeg)

        // When it is decoded at each scale, probed or rendered, then it is damaged
        for denominator in [1, 2, 4, 8] {
            #expect(throws: ImageError.damaged(.jpeg)) { try GDImage.decoded(jpeg, header: header, scaledDownBy: denominator) }
        }
        #expect(throws: ImageError.damaged(.jpeg)) { try ImageProbe.probe(jpeg) }
        #expect(throws: ThumbnailError.background(.damaged(.jpeg))) {
            try ThumbnailRenderer.render(
                background: jpeg, overlay: nil, settings: TestImages.settings(), text: "", font: TestImages.font)
        }
    }
}
