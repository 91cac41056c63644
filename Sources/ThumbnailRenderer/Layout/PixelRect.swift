/// A rectangle in whole pixels, from the top-left corner.
struct PixelRect: Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// A rectangle of `width` x `height` centred in this one (rounded towards the top left).
    func centred(width: Int, height: Int) -> PixelRect {
        PixelRect(x: x + (self.width - width) / 2, y: y + (self.height - height) / 2, width: width, height: height)
    }

    /// This rectangle with `pixels` more on every side.
    func expanded(by pixels: Int) -> PixelRect {
        PixelRect(x: x - pixels, y: y - pixels, width: width + 2 * pixels, height: height + 2 * pixels)
    }

    /// The pixels both rectangles hold; nil when they share none.
    func intersection(_ other: PixelRect) -> PixelRect? {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(x + width, other.x + other.width), bottom = min(y + height, other.y + other.height)
        guard left < right, top < bottom else { return nil }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
