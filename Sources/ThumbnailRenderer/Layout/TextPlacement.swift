import PodcastDomain

extension ThumbnailSettings {
    /// Where a box of `width` x `height` pixels (the text with its outline) goes on the canvas: its top-left
    /// corner.
    ///
    /// The box's centre goes at the position's fraction of the canvas, then moves in as little as needed
    /// to keep clear of the padding. So the seven presets come out as the reference app draws them: 0 puts
    /// the box against the left (top) padding, 1 against the right (bottom) padding, and 0.5 centres it,
    /// whatever the padding. A box wider than the room between the paddings is centred.
    func textOrigin(width: Int, height: Int) -> (x: Int, y: Int) {
        (Self.origin(textPositionX, box: width, canvas: canvasWidth, padding: horizontalPadding),
         Self.origin(textPositionY, box: height, canvas: canvasHeight, padding: verticalPadding))
    }

    private static func origin(_ fraction: Double, box: Int, canvas: Int, padding: Double) -> Int {
        let low = Int(padding.rounded()), high = canvas - low - box
        guard low <= high else { return (canvas - box) / 2 }
        let centred = Int((fraction * Double(canvas) - Double(box) / 2).rounded(.down))
        return min(max(centred, low), high)
    }
}
