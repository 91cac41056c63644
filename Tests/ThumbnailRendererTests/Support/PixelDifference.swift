import ThumbnailRenderer

/// How far two images may differ and still count as the same: libpng, libjpeg or FreeType updates may
/// move a channel by a few levels or an antialiased edge pixel, never a whole shape.
struct Tolerance {
    /// The largest difference in any channel (0 to 255) for a pixel to count as equal.
    var channel: Int
    /// The most pixels that may differ by more, as a fraction of all.
    var pixels: Double

    static let goldens = Tolerance(channel: 16, pixels: 0.005)
    /// A JPEG of quality 80 against the pixels it was made from: ringing beside sharp edges.
    static let jpeg = Tolerance(channel: 32, pixels: 0.02)
}

/// What differs between two images of the same size: how many pixels differ by more than a tolerance.
struct PixelDifference: CustomStringConvertible {
    let width: Int
    let height: Int
    let sizesMatch: Bool
    /// Pixels whose largest channel difference exceeds the tolerance's.
    let differing: Int
    let largest: Int

    init(_ expected: PixelBuffer, _ actual: PixelBuffer, _ tolerance: Tolerance) {
        width = actual.width
        height = actual.height
        sizesMatch = expected.width == actual.width && expected.height == actual.height
        guard sizesMatch else {
            (differing, largest) = (actual.width * actual.height, 255)
            return
        }
        var differing = 0, largest = 0
        for pixel in stride(from: 0, to: actual.rgba.count, by: 4) {
            let most = (0..<4).map { abs(Int(expected.rgba[pixel + $0]) - Int(actual.rgba[pixel + $0])) }.max()!
            largest = max(largest, most)
            if most > tolerance.channel { differing += 1 }
        }
        (self.differing, self.largest) = (differing, largest)
    }

    func isWithin(_ tolerance: Tolerance) -> Bool {
        sizesMatch && Double(differing) <= tolerance.pixels * Double(width * height)
    }

    var description: String {
        guard sizesMatch else { return "the sizes differ (\(width) x \(height) drawn)" }
        return "\(differing) of \(width * height) pixels differ (largest channel difference \(largest))"
    }
}
