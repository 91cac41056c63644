import PodcastDomain
import Testing

@testable import ThumbnailRenderer

/// The geometry under the goldens: where the background, the overlay and the text go, in whole pixels.
@Suite("Placement")
struct PlacementTests {
    let canvas = PixelRect(x: 0, y: 0, width: 160, height: 90)

    @Test("a portrait image: aspect fill crops its top and bottom, aspect fit letterboxes it, stretch fills")
    func scaling() {
        #expect(BackgroundScaling.aspectFill.placement(width: 96, height: 128, on: canvas)
            == Placement(from: PixelRect(x: 0, y: 37, width: 96, height: 54), to: canvas))
        #expect(BackgroundScaling.aspectFit.placement(width: 96, height: 128, on: canvas)
            == Placement(from: PixelRect(x: 0, y: 0, width: 96, height: 128), to: PixelRect(x: 46, y: 0, width: 68, height: 90)))
        #expect(BackgroundScaling.stretch.placement(width: 96, height: 128, on: canvas)
            == Placement(from: PixelRect(x: 0, y: 0, width: 96, height: 128), to: canvas))
    }

    @Test("an image of the canvas's shape is drawn whole in every mode")
    func sameShape() {
        for scaling in BackgroundScaling.allCases {
            #expect(scaling.placement(width: 1920, height: 1080, on: canvas)
                == Placement(from: PixelRect(x: 0, y: 0, width: 1920, height: 1080), to: canvas))
        }
    }

    @Test("the presets put the box against the padding at 0 and 1 and centre it at 0.5, padding or not")
    func presets() {
        // A 40 x 20 box on 160 x 90, with 8 and 6 pixels of padding
        let expected: [TextPosition: (x: Int, y: Int)] = [
            .topLeft: (8, 6), .topCenter: (60, 6), .topRight: (112, 6), .center: (60, 35),
            .bottomLeft: (8, 64), .bottomCenter: (60, 64), .bottomRight: (112, 64),
        ]
        for (position, origin) in expected {
            let placed = TestImages.settings(position).textOrigin(width: 40, height: 20)
            #expect(placed == origin, "\(position)")
        }
    }

    @Test("between presets the box's centre follows the fraction until the padding stops it")
    func inBetween() {
        var settings = TestImages.settings()
        (settings.textPositionX, settings.textPositionY) = (0.25, 0.05)
        #expect(settings.textOrigin(width: 40, height: 20) == (20, 6))
    }

    @Test("lines align left in the left third of the canvas, right in the right third, and centred between")
    func lineAlignment() {
        #expect([0, 0.2, 0.33].map(LineAlignment.init(positionX:)) == [.left, .left, .left])
        #expect([0.34, 0.5, 0.66].map(LineAlignment.init(positionX:)) == [.centre, .centre, .centre])
        #expect([0.67, 0.9, 1].map(LineAlignment.init(positionX:)) == [.right, .right, .right])
        // A 40-pixel line in a 101-pixel block
        #expect([LineAlignment.left, .centre, .right].map { $0.offset(of: 40, in: 101) } == [0, 30, 61])
    }

    @Test("a box wider than the room between the paddings is centred")
    func tooWide() {
        #expect(TestImages.settings(.topLeft).textOrigin(width: 150, height: 20) == (5, 6))
    }

    @Test("an overlay fills or fits the canvas centred, as a background's aspect fill and fit do")
    func overlayFillAndFit() {
        // Given a 320 x 90 overlay (wider than the 160 x 90 canvas)
        var settings = TestImages.settings()

        // When it fills, then its middle half covers the canvas; when it fits, it is drawn whole, centred
        settings.overlayPlacement = .fill
        #expect(settings.placement(ofOverlayWidth: 320, height: 90)
            == Placement(from: PixelRect(x: 80, y: 0, width: 160, height: 90), to: canvas))
        settings.overlayPlacement = .fit
        #expect(settings.placement(ofOverlayWidth: 320, height: 90)
            == Placement(from: PixelRect(x: 0, y: 0, width: 320, height: 90), to: PixelRect(x: 0, y: 22, width: 160, height: 45)))
    }

    @Test("an overlay at its own size is scaled, then placed at its position as the text's box is")
    func overlayOriginal() {
        // Given a 320 x 90 overlay at a quarter of its size (80 x 23: 22.5 rounds up)
        var settings = TestImages.settings()
        settings.overlayPlacement = .original
        settings.overlayScale = 0.25
        let whole = PixelRect(x: 0, y: 0, width: 320, height: 90)

        // When it is placed at each preset, then it goes where a box of its size would
        for position in TextPosition.allCases {
            settings.placeOverlay(at: position)
            let corner = TestImages.settings(position).textOrigin(width: 80, height: 23)
            #expect(settings.placement(ofOverlayWidth: 320, height: 90)
                == Placement(from: whole, to: PixelRect(x: corner.x, y: corner.y, width: 80, height: 23)), "\(position)")
        }
    }

    @Test("an overlay larger than the canvas is centred and cut to what the canvas shows")
    func overlayOverflowing() {
        // Given the 320 x 90 overlay at its own size, and at twice it, centred on 160 x 90
        var settings = TestImages.settings()
        settings.overlayPlacement = .original

        // When it is placed, then only its middle is drawn, onto the whole canvas
        #expect(settings.placement(ofOverlayWidth: 320, height: 90)
            == Placement(from: PixelRect(x: 80, y: 0, width: 160, height: 90), to: canvas))
        settings.overlayScale = 2
        #expect(settings.placement(ofOverlayWidth: 320, height: 90)
            == Placement(from: PixelRect(x: 120, y: 23, width: 80, height: 45), to: canvas))
    }

    @Test("a placement partly off the canvas is cut in proportion; one wholly off it draws nothing")
    func clipping() {
        // Given a 100 x 50 image drawn at 20 x 10 over the top-right corner, and one beside the canvas
        let whole = PixelRect(x: 0, y: 0, width: 100, height: 50)
        let overCorner = Placement(from: whole, to: PixelRect(x: 150, y: -5, width: 20, height: 10))
        let beside = Placement(from: whole, to: PixelRect(x: 160, y: 0, width: 20, height: 10))

        // When each is clipped, then the first keeps its bottom-left quarter, the second nothing
        #expect(overCorner.clipped(to: canvas)
            == Placement(from: PixelRect(x: 0, y: 25, width: 50, height: 25), to: PixelRect(x: 150, y: 0, width: 10, height: 5)))
        #expect(beside.clipped(to: canvas) == nil)
    }
}
