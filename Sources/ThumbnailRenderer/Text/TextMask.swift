import CGD

/// Text as coverage: for each pixel, how much of it the glyphs cover, 0 (none) to 127 (all), cropped to
/// the ink.
///
/// FreeType draws the text once, white on a transparent image, and the coverage is read back from the
/// alpha channel. The fill and the outline are both drawn from it, and its exact ink box (rather than
/// FreeType's rounded estimate) is what gets placed on the canvas.
struct TextMask {
    let width: Int
    let height: Int
    /// `width * height` values, row by row from the top.
    private(set) var coverage: [UInt8]
    /// Rows from the mask's top down to the text's baseline (more than `height` when all the ink hangs
    /// above it, negative when all of it hangs below): what lines are stacked by.
    let baseline: Int

    /// Sizes are in points at 72 dpi, so one point is one pixel of the canvas, as in the reference app.
    static let dotsPerInch: Int32 = 72

    /// Nil when no pixel is inked (empty or blank text).
    init?(_ text: String, font: ThumbnailFont, size: Double) throws(ThumbnailError) {
        let bounds = try Self.draw(text, font: font.path, size: size, on: nil, at: (0, 0))
        // FreeType's estimate may be off by a pixel or so; a margin keeps every inked pixel inside.
        let margin: Int32 = 4
        let left = min(bounds[0], bounds[6]) - margin, top = min(bounds[5], bounds[7]) - margin
        let right = max(bounds[2], bounds[4]) + margin, bottom = max(bounds[1], bounds[3]) + margin
        guard let layer = GDImage(width: Int(right - left + 1), height: Int(bottom - top + 1)) else {
            throw .outOfMemory(width: Int(right - left + 1), height: Int(bottom - top + 1))
        }
        layer.fill(GDColor(red: 0, green: 0, blue: 0, alpha: GDColor.transparent))
        _ = try Self.draw(text, font: font.path, size: size, on: layer, at: (-left, -top))
        guard let ink = Self.inkBox(of: layer) else { return nil }
        width = ink.width
        height = ink.height
        baseline = Int(-top) - ink.y
        coverage = []
        coverage.reserveCapacity(width * height)
        for y in ink.y..<ink.y + height {
            for x in ink.x..<ink.x + width { coverage.append(UInt8(layer.pixel(x, y).coverage)) }
        }
    }

    init(width: Int, height: Int, coverage: [UInt8], baseline: Int) {
        precondition(coverage.count == width * height, "\(coverage.count) values for \(width) x \(height) pixels")
        self.width = width
        self.height = height
        self.coverage = coverage
        self.baseline = baseline
    }

    subscript(x: Int, y: Int) -> UInt8 { coverage[y * width + x] }

    var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The same coverage with `pixels` of nothing added on every side.
    func padded(by pixels: Int) -> TextMask {
        let paddedWidth = width + 2 * pixels
        var padded = [UInt8](repeating: 0, count: paddedWidth * (height + 2 * pixels))
        for y in 0..<height {
            let start = (y + pixels) * paddedWidth + pixels
            padded.replaceSubrange(start..<start + width, with: coverage[y * width..<(y + 1) * width])
        }
        return TextMask(width: paddedWidth, height: height + 2 * pixels, coverage: padded, baseline: baseline + pixels)
    }

    /// The part of the coverage inside `rect` (which lies within the mask).
    func cropped(to rect: PixelRect) -> TextMask {
        var part: [UInt8] = []
        part.reserveCapacity(rect.width * rect.height)
        for y in rect.y..<rect.y + rect.height {
            part += coverage[y * width + rect.x..<y * width + rect.x + rect.width]
        }
        return TextMask(width: rect.width, height: rect.height, coverage: part, baseline: baseline - rect.y)
    }

    /// Each pixel takes the largest coverage within `offsets` of it: the ink grown by a disc, which is
    /// the outline. Pixels near the border read nothing beyond it, so pad first.
    ///
    /// One offset at a time over whole rows, so that the inner loop is a plain running maximum the
    /// compiler vectorizes: three lines at 200 points hold a million pixels, and their disc 200 offsets.
    func grown(by offsets: [(x: Int, y: Int)]) -> TextMask {
        var grown = coverage
        coverage.withUnsafeBufferPointer { source in
            grown.withUnsafeMutableBufferPointer { target in
                for offset in offsets {
                    // Pixel (x, y) reads (x + offset.x, y + offset.y), where that lies in the mask.
                    let columns = max(0, -offset.x)..<min(width, width - offset.x)
                    guard !columns.isEmpty else { continue }
                    for y in max(0, -offset.y)..<min(height, height - offset.y) {
                        let row = target.baseAddress! + y * width, read = source.baseAddress! + (y + offset.y) * width + offset.x
                        for x in columns { row[x] = max(row[x], read[x]) }
                    }
                }
            }
        }
        return TextMask(width: width, height: height, coverage: grown, baseline: baseline)
    }

    /// FreeType's estimate of where `text` inks, measured without drawing it: pixels from the start of its
    /// baseline, y growing down.
    static func extent(of text: String, font: ThumbnailFont, size: Double) throws(ThumbnailError) -> InkExtent {
        let bounds = try draw(text, font: font.path, size: size, on: nil, at: (0, 0))
        let extent = InkExtent(
            left: Int(min(bounds[0], bounds[6])), top: Int(min(bounds[5], bounds[7])),
            right: Int(max(bounds[2], bounds[4])), bottom: Int(max(bounds[1], bounds[3])))
        return extent
    }

    /// Why FreeType cannot draw with the font at `path`, or nil when it can.
    static func problem(drawingWith path: String) -> String? {
        do {
            _ = try draw("Ag", font: path, size: 12, on: nil, at: (0, 0))
            return nil
        } catch {
            if case .textNotDrawn(let reason) = error { return reason }
            return error.description
        }
    }

    /// Draws `text` in opaque white with its baseline starting at `origin`, or only measures it when
    /// `image` is nil. Returns libgd's bounding box: the corners lower-left, lower-right, upper-right,
    /// upper-left, as x, y pairs.
    private static func draw(
        _ text: String, font: String, size: Double, on image: GDImage?, at origin: (x: Int32, y: Int32)
    ) throws(ThumbnailError) -> [Int32] {
        var bounds = [Int32](repeating: 0, count: 8)
        var extra = gdFTStringExtra()
        extra.flags = gdFTEX_RESOLUTION
        extra.hdpi = dotsPerInch
        extra.vdpi = dotsPerInch
        var fontPath = Array(font.utf8CString), string = Array(text.utf8CString)
        let white = GDColor(red: 255, green: 255, blue: 255).rawValue
        let failure = fontPath.withUnsafeMutableBufferPointer { fontPath in
            string.withUnsafeMutableBufferPointer { string in
                LibGD.gd.imageStringFTEx!(
                    image?.pointer, &bounds, white, fontPath.baseAddress, size, 0, origin.x, origin.y,
                    string.baseAddress, &extra)
            }
        }
        if let failure { throw .textNotDrawn(reason: String(cString: failure)) }
        return bounds
    }

    /// The smallest rectangle holding every pixel with some coverage; nil when there is none.
    private static func inkBox(of layer: GDImage) -> PixelRect? {
        var left = layer.width, top = layer.height, right = -1, bottom = -1
        for y in 0..<layer.height {
            for x in 0..<layer.width where layer.pixel(x, y).coverage > 0 {
                left = min(left, x)
                right = max(right, x)
                top = min(top, y)
                bottom = max(bottom, y)
            }
        }
        guard right >= 0 else { return nil }
        return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }
}
