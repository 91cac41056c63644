import PodcastDomain

extension BackgroundScaling {
    /// Which part of an image of `width` x `height` pixels is drawn, and where on `canvas`, so that it is
    /// centred and scaled as this mode says.
    func placement(width: Int, height: Int, on canvas: PixelRect) -> Placement {
        let whole = PixelRect(x: 0, y: 0, width: width, height: height)
        let widthRatio = Double(canvas.width) / Double(width), heightRatio = Double(canvas.height) / Double(height)
        switch self {
        case .stretch:
            return Placement(from: whole, to: canvas)
        case .aspectFill:
            // Scaled to cover the canvas: the part of the image the canvas shows, centred.
            let scale = max(widthRatio, heightRatio)
            let shown = (Double(canvas.width) / scale).pixels(upTo: width)
            let shownHeight = (Double(canvas.height) / scale).pixels(upTo: height)
            return Placement(from: whole.centred(width: shown, height: shownHeight), to: canvas)
        case .aspectFit:
            // Scaled to fit inside the canvas; the rest stays black.
            let scale = min(widthRatio, heightRatio)
            let drawn = (Double(width) * scale).pixels(upTo: canvas.width)
            let drawnHeight = (Double(height) * scale).pixels(upTo: canvas.height)
            return Placement(from: whole, to: canvas.centred(width: drawn, height: drawnHeight))
        }
    }
}

extension Double {
    /// This length rounded to whole pixels, 1 to `limit`.
    fileprivate func pixels(upTo limit: Int) -> Int { Swift.min(Swift.max(Int(rounded()), 1), limit) }
}
