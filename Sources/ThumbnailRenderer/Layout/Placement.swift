/// Where an image is drawn: the part of it shown (`from`, in its pixels) and the rectangle of the canvas
/// it is scaled into (`to`). Both are at least 1 pixel a side.
struct Placement: Hashable {
    var from: PixelRect
    var to: PixelRect

    /// The part of this placement that lands on `canvas`, with `from` cut in proportion; nil when none
    /// does. Rounded to whole pixels, so a cut edge may move by up to half a pixel of the image.
    func clipped(to canvas: PixelRect) -> Placement? {
        guard let shown = to.intersection(canvas) else { return nil }
        guard shown != to else { return self }
        let x = Self.cut(from.x, from.width, drawn: to.x, to.width, shown: shown.x, shown.width)
        let y = Self.cut(from.y, from.height, drawn: to.y, to.height, shown: shown.y, shown.height)
        return Placement(from: PixelRect(x: x.start, y: y.start, width: x.length, height: y.length), to: shown)
    }

    /// This placement for the image decoded at 1/`denominator` of its size, whose bounds are then
    /// `decoded`: `from` divided, rounded to whole pixels and kept inside; `to` unchanged.
    func scaledDown(by denominator: Int, within decoded: PixelRect) -> Placement {
        guard denominator > 1 else { return self }
        func scaled(_ start: Int, _ length: Int, _ limit: Int) -> (start: Int, length: Int) {
            let low = min(Int((Double(start) / Double(denominator)).rounded()), limit - 1)
            let high = min(max(Int((Double(start + length) / Double(denominator)).rounded()), low + 1), limit)
            return (low, high - low)
        }
        let x = scaled(from.x, from.width, decoded.width), y = scaled(from.y, from.height, decoded.height)
        return Placement(from: PixelRect(x: x.start, y: y.start, width: x.length, height: y.length), to: to)
    }

    /// One axis of ``clipped(to:)``: the part of the image's span `start`, `length` that shows in the part
    /// `shownStart`, `shownLength` of the canvas span it is drawn into, `drawnStart`, `drawnLength`.
    private static func cut(
        _ start: Int, _ length: Int, drawn drawnStart: Int, _ drawnLength: Int, shown shownStart: Int, _ shownLength: Int
    ) -> (start: Int, length: Int) {
        let ratio = Double(length) / Double(drawnLength), offset = shownStart - drawnStart
        let low = min(Int((Double(offset) * ratio).rounded()), length - 1)
        let high = max(Int((Double(offset + shownLength) * ratio).rounded()), low + 1)
        return (start + low, min(high, length) - low)
    }
}
