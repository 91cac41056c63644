import PodcastDomain
import ThumbnailRenderer

/// The inputs of the golden scenes, drawn in code: flat shapes with sharp edges, so that any scaling
/// mode, crop or misplaced overlay shows in many pixels.
enum TestImages {
    /// 96 x 128 (portrait, against a landscape canvas): four coloured quarters inside a 4-pixel white
    /// frame, so that aspect fill crops the frame's top and bottom, aspect fit letterboxes the sides, and
    /// stretch keeps the whole frame.
    static let background: [UInt8] = try! PixelBuffer(width: 96, height: 128) { x, y in
        if x < 4 || y < 4 || x >= 92 || y >= 124 { return (255, 255, 255, 255) }
        switch (x < 48, y < 64) {
        case (true, true): return (200, 40, 40, 255)
        case (false, true): return (40, 160, 60, 255)
        case (true, false): return (40, 70, 200, 255)
        case (false, false): return (230, 200, 40, 255)
        }
    }.encoded(as: .png)

    /// 320 x 90 (wider than the canvas, so aspect fill crops its sides): transparent but for a
    /// half-transparent black band across the middle third and an opaque orange square near its centre.
    static let overlay: [UInt8] = try! PixelBuffer(width: 320, height: 90) { x, y in
        if (150..<170).contains(x) && (5..<25).contains(y) { return (255, 140, 0, 255) }
        if (30..<60).contains(y) { return (0, 0, 0, 128) }
        return (0, 0, 0, 0)
    }.encoded(as: .png)

    /// A photo-like picture of any size: smooth gradients, and a darker disc with a soft edge, which any
    /// shrinking keeps.
    static func photo(width: Int, height: Int) -> PixelBuffer {
        PixelBuffer(width: width, height: height) { x, y in
            let across = Double(x) / Double(width), down = Double(y) / Double(height)
            let distance = ((across - 0.6) * (across - 0.6) + (down - 0.4) * (down - 0.4)).squareRoot()
            let shade = min(max((distance - 0.2) / 0.05, 0), 1) * 0.5 + 0.5
            return (UInt8(shade * (60 + 180 * across)), UInt8(shade * (80 + 150 * down)), UInt8(shade * (200 - 120 * across)), 255)
        }
    }

    /// The golden scenes' settings: a 160 x 90 canvas, 24-point text, 8 and 6 pixels of padding. The text
    /// fits, so the default fit (shrink) leaves it as it is: these scenes test placement, not fitting.
    static func settings(_ position: TextPosition = .center, scaling: BackgroundScaling = .aspectFill, outline: Bool = true)
        -> ThumbnailSettings
    {
        // The overlay fills the canvas, as every golden was drawn before `fit` became the default.
        var settings = ThumbnailSettings(
            fontSize: 24, horizontalPadding: 8, verticalPadding: 6, canvasWidth: 160, canvasHeight: 90,
            backgroundScaling: scaling, outlineEnabled: outline, overlayPlacement: .fill)
        settings.placeText(at: position)
        return settings
    }

    static let text = "EP 42"
    static let font = try! ThumbnailFont.defaultBold()

    /// The fitted scenes' settings: a 240 x 135 canvas, with room for lines, and 12 and 10 pixels of
    /// padding, so that text kept inside it shows clear of the edges.
    static func fitted(_ fit: TextFit, size: Double, at position: TextPosition = .center, outline: Bool = true)
        -> ThumbnailSettings
    {
        var settings = ThumbnailSettings(
            fontSize: size, horizontalPadding: 12, verticalPadding: 10, canvasWidth: 240, canvasHeight: 135,
            outlineEnabled: outline, textFit: fit)
        settings.placeText(at: position)
        return settings
    }

    /// Too wide for one line at 22 points on the fitted canvas: two lines when wrapped.
    static let wrappedText = "Night Shift: the last train home"
    /// A line break of its own, then a line that must wrap: three lines, much smaller than 48 points.
    static let shrunkText = "EP 42\nThe quick brown fox jumps over the lazy dog"

    /// One colour (no text is drawn in it), so that every pixel of another colour is the text's.
    static let plainColor = (red: UInt8(30), green: UInt8(90), blue: UInt8(160))
    static let plain: [UInt8] = try! PixelBuffer(width: 8, height: 8) { _, _ in
        (plainColor.red, plainColor.green, plainColor.blue, 255)
    }.encoded(as: .png)
}
