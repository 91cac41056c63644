import PodcastDomain

/// What text a render drew: the size it was drawn at and its lines.
struct DrawnText: Hashable {
    /// Points: the size the fitting chose, or the set size when nothing was drawn.
    let fontSize: Double
    /// From the first line with ink to the last, blank lines between included; 0 when nothing inked.
    let lineCount: Int
}

extension GDImage {
    /// Draws `text` as the settings say: its lines fitted as ``TextFit`` says, aligned towards the side the
    /// text is placed at, and placed with its outline (when enabled) inside the box; the outline first,
    /// then the fill over it.
    func drawText(_ text: String, font: ThumbnailFont, settings: ThumbnailSettings) throws(ThumbnailError) -> DrawnText {
        guard let (layout, ink) = try Self.fitted(TextLines.split(text), font: font, settings: settings) else {
            return DrawnText(fontSize: settings.fontSize, lineCount: 0)
        }
        let radius = settings.outlineEnabled ? Outline.radius(fontSize: layout.size) : 0
        let box = ink.padded(by: radius)
        let origin = settings.textOrigin(width: box.width, height: box.height)
        let drawn = DrawnText(fontSize: layout.size, lineCount: layout.lines.count)
        // Only what lands on the canvas, with the outline's reach around it, is kept: text wider than the
        // canvas is cut before its outline is grown, which costs a disc of reads a pixel.
        let reach = PixelRect(x: -origin.x, y: -origin.y, width: width, height: height).expanded(by: radius)
        guard let shown = box.bounds.intersection(reach) else { return drawn }
        let fill = box.cropped(to: shown), corner = (x: origin.x + shown.x, y: origin.y + shown.y)
        if settings.outlineEnabled {
            draw(fill.grown(by: Outline.disc(radius: radius)), in: settings.outlineColorHex, at: corner)
        }
        draw(fill, in: settings.fontColorHex, at: corner)
        return drawn
    }

    /// The layout the settings' fit asks for, and its ink; nil when nothing inks.
    ///
    /// The fitting works on estimates; the ink is exact. When the ink with its outline overruns the padded
    /// area, the fitting runs again in a room narrowed by the overrun, until it fits or the fitting refuses
    /// (which it does once the room is narrower than its margin, so the rounds end).
    private static func fitted(
        _ lines: [Substring], font: ThumbnailFont, settings: ThumbnailSettings
    ) throws(ThumbnailError) -> (TextLayout, TextMask)? {
        guard !lines.isEmpty else { return nil }
        let alignment = LineAlignment(positionX: settings.textPositionX)
        guard settings.textFit != .none else {
            let layout = TextLayout(size: settings.fontSize, lines: lines)
            return try TextMask(layout, font: font, alignment: alignment).map { (layout, $0) }
        }
        let fitting = try TextFitting(lines, font: font, settings: settings)
        var allowance = (width: 0, height: 0)
        while true {
            let layout = try fitting.layout(narrowedBy: allowance)
            guard let ink = try TextMask(layout, font: font, alignment: alignment) else { return nil }
            let reach = settings.outlineEnabled ? 2 * Outline.radius(fontSize: layout.size) : 0
            let overrun = (width: ink.width + reach - fitting.room.width, height: ink.height + reach - fitting.room.height)
            if overrun.width <= 0 && overrun.height <= 0 { return (layout, ink) }
            allowance.width += max(overrun.width, 0)
            allowance.height += max(overrun.height, 0)
        }
    }

    /// Blends `color` over each pixel as much as `mask` covers it; what falls off the image is dropped.
    private func draw(_ mask: TextMask, in color: HexColor, at origin: (x: Int, y: Int)) {
        let color = GDColor(color, coverage: 0)  // read once: a hex string is slow to parse a pixel at a time
        for y in 0..<mask.height where (0..<height).contains(origin.y + y) {
            for x in 0..<mask.width where (0..<width).contains(origin.x + x) {
                let coverage = mask[x, y]
                if coverage > 0 { blend(color.covering(Int32(coverage)), origin.x + x, origin.y + y) }
            }
        }
    }
}
