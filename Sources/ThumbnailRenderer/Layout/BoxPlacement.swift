import PodcastDomain

extension ThumbnailSettings {
    /// Where a box of `width` x `height` pixels placed at the fractions `x` and `y` of the canvas goes: its
    /// top-left corner. The text's box and an overlay at its own size are placed so.
    ///
    /// The box's centre goes at the fractions of the canvas, then moves in as little as needed to keep
    /// clear of the padding. So the seven presets come out as the reference app draws them: 0 puts the box
    /// against the left (top) padding, 1 against the right (bottom) padding, and 0.5 centres it, whatever
    /// the padding. A box wider than the room between the paddings is centred.
    func origin(ofBox width: Int, _ height: Int, at x: Double, _ y: Double) -> (x: Int, y: Int) {
        (Self.origin(x, box: width, canvas: canvasWidth, padding: horizontalPadding),
         Self.origin(y, box: height, canvas: canvasHeight, padding: verticalPadding))
    }

    private static func origin(_ fraction: Double, box: Int, canvas: Int, padding: Double) -> Int {
        let low = Int(padding.rounded()), high = canvas - low - box
        guard low <= high else { return (canvas - box) / 2 }
        let centred = Int((fraction * Double(canvas) - Double(box) / 2).rounded(.down))
        return min(max(centred, low), high)
    }
}
