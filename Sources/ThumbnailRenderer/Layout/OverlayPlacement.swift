import PodcastDomain

extension ThumbnailSettings {
    /// Which part of an overlay of `width` x `height` pixels is drawn, and where, as ``overlayPlacement``
    /// says; nil when none of it lands on the canvas.
    ///
    /// Filling and fitting centre it as a background's aspect fill and fit do. At its own size it is drawn
    /// whole at ``overlayScale`` times its pixels (at least 1 a side), its box placed at the overlay's
    /// position as the text's box is at the text's, and cut where it overflows the canvas.
    func placement(ofOverlayWidth width: Int, height: Int) -> Placement? {
        let canvas = PixelRect(x: 0, y: 0, width: canvasWidth, height: canvasHeight)
        switch overlayPlacement {
        case .fill:
            return BackgroundScaling.aspectFill.placement(width: width, height: height, on: canvas)
        case .fit:
            return BackgroundScaling.aspectFit.placement(width: width, height: height, on: canvas)
        case .original:
            let drawnWidth = max(1, Int((Double(width) * overlayScale).rounded()))
            let drawnHeight = max(1, Int((Double(height) * overlayScale).rounded()))
            let corner = origin(ofBox: drawnWidth, drawnHeight, at: overlayPositionX, overlayPositionY)
            let whole = PixelRect(x: 0, y: 0, width: width, height: height)
            let drawn = PixelRect(x: corner.x, y: corner.y, width: drawnWidth, height: drawnHeight)
            return Placement(from: whole, to: drawn).clipped(to: canvas)
        }
    }
}
