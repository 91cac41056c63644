import PodcastDomain
import Testing

@testable import ThumbnailRenderer

/// The geometry under the goldens: where the background and the text go, in whole pixels.
@Suite("Placement")
struct PlacementTests {
    let canvas = PixelRect(x: 0, y: 0, width: 160, height: 90)

    @Test("a portrait image: aspect fill crops its top and bottom, aspect fit letterboxes it, stretch fills")
    func scaling() {
        #expect(BackgroundScaling.aspectFill.placement(width: 96, height: 128, on: canvas)
            == (PixelRect(x: 0, y: 37, width: 96, height: 54), canvas))
        #expect(BackgroundScaling.aspectFit.placement(width: 96, height: 128, on: canvas)
            == (PixelRect(x: 0, y: 0, width: 96, height: 128), PixelRect(x: 46, y: 0, width: 68, height: 90)))
        #expect(BackgroundScaling.stretch.placement(width: 96, height: 128, on: canvas)
            == (PixelRect(x: 0, y: 0, width: 96, height: 128), canvas))
    }

    @Test("an image of the canvas's shape is drawn whole in every mode")
    func sameShape() {
        for scaling in BackgroundScaling.allCases {
            #expect(scaling.placement(width: 1920, height: 1080, on: canvas)
                == (PixelRect(x: 0, y: 0, width: 1920, height: 1080), canvas))
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
}
