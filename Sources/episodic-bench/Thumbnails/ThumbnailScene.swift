import CoreValues
import PodcastDomain
import ThumbnailRenderer

/// The benchmark's thumbnail inputs, generated: a photo-like JPEG background (smooth gradients under
/// fine noise, which JPEG cannot flatten) and a PNG overlay with alpha (a translucent band and an opaque
/// logo on transparency), as a podcast's branding looks.
struct ThumbnailScene {
    let background: [UInt8]
    let overlay: [UInt8]

    static func make(
        background: (width: Int, height: Int), overlay: (width: Int, height: Int), seed: UInt64
    ) throws -> ThumbnailScene {
        var random = SplitMix64(seed: seed)
        let photo = PixelBuffer(width: background.width, height: background.height) { x, y in
            let noise = Int(random.next() % 48)
            return (
                UInt8(min(255, 40 + x * 150 / background.width + noise)), UInt8(min(255, 60 + y * 120 / background.height + noise)),
                UInt8(min(255, 180 - x * 100 / background.width + noise)), 255)
        }
        let (width, height) = overlay
        let branding = PixelBuffer(width: width, height: height) { x, y in
            if x > width - 260 && x < width - 60 && y > 60 && y < 260 { return (250, 120, 20, 255) }
            if y > height * 3 / 4 && y < height * 3 / 4 + 120 { return (0, 0, 0, 150) }
            return (0, 0, 0, 0)
        }
        return ThumbnailScene(background: try photo.encoded(as: .jpeg), overlay: try branding.encoded(as: .png))
    }
}
