import PodcastDomain

extension GDImage {
    /// Draws `text` as the settings say: placed with its outline (when enabled) inside the box, the
    /// outline first, then the fill over it.
    func drawText(_ text: String, font: ThumbnailFont, settings: ThumbnailSettings) throws(ThumbnailError) {
        guard let ink = try TextMask(text, font: font, size: settings.fontSize) else { return }
        let radius = settings.outlineEnabled ? Outline.radius(fontSize: settings.fontSize) : 0
        let box = ink.padded(by: radius)
        let origin = settings.textOrigin(width: box.width, height: box.height)
        // Only what lands on the canvas, with the outline's reach around it, is kept: text wider than the
        // canvas is cut before its outline is grown, which costs a disc of reads a pixel.
        let reach = PixelRect(x: -origin.x, y: -origin.y, width: width, height: height).expanded(by: radius)
        guard let shown = box.bounds.intersection(reach) else { return }
        let fill = box.cropped(to: shown), corner = (x: origin.x + shown.x, y: origin.y + shown.y)
        if settings.outlineEnabled {
            draw(fill.grown(by: Outline.disc(radius: radius)), in: settings.outlineColorHex, at: corner)
        }
        draw(fill, in: settings.fontColorHex, at: corner)
    }

    /// Blends `color` over each pixel as much as `mask` covers it; what falls off the image is dropped.
    private func draw(_ mask: TextMask, in color: HexColor, at origin: (x: Int, y: Int)) {
        for y in 0..<mask.height where (0..<height).contains(origin.y + y) {
            for x in 0..<mask.width where (0..<width).contains(origin.x + x) {
                let coverage = mask[x, y]
                if coverage > 0 { blend(GDColor(color, coverage: Int32(coverage)), origin.x + x, origin.y + y) }
            }
        }
    }
}
