import PodcastDomain

/// Draws thumbnails. Rendering is a pure function: the same bytes, settings, text and font always give
/// the same pixels, and nothing is read or written but the font file.
public enum ThumbnailRenderer {
    /// Raise it whenever a change to drawing changes pixels: every input digest includes it, so that
    /// thumbnails drawn by an older renderer no longer match.
    public static let version = 2

    /// Draws a thumbnail at the settings' canvas size: the background scaled and centred as the settings
    /// say (black where it does not reach), the overlay over it as the settings place it (blended by its
    /// alpha), then the text, fitted as the settings' ``TextFit`` says. Throws
    /// ``ThumbnailError/textDoesNotFit(_:)`` when it cannot fit.
    ///
    /// `background` and `overlay` are PNG or JPEG bytes, checked as ``ImageProbe`` checks them, and drawn
    /// the right way up as a JPEG's Exif orientation says.
    public static func render(
        background: [UInt8], overlay: [UInt8]?, settings: ThumbnailSettings, text: String, font: ThumbnailFont
    ) throws(ThumbnailError) -> Thumbnail {
        let settings = try checked(settings)
        let width = settings.canvasWidth, height = settings.canvasHeight
        let (backgroundImage, overlayImage) = try decoded(background: background, overlay: overlay, settings: settings)
        guard let canvas = GDImage(width: width, height: height) else { throw .outOfMemory(width: width, height: height) }

        try canvas.draw(backgroundImage)
        if let overlayImage { try canvas.draw(overlayImage) }
        let drawn = try canvas.drawText(text, font: font, settings: settings)
        return Thumbnail(image: canvas, fontSize: drawn.fontSize, lineCount: drawn.lineCount)
    }

    /// Decodes the images as ``render(background:overlay:settings:text:font:)`` does, and draws nothing:
    /// the part of a render that is the codecs' work, which the benchmark measures beside it.
    package static func decodeOnly(background: [UInt8], overlay: [UInt8]?, settings: ThumbnailSettings) throws(ThumbnailError) {
        _ = try decoded(background: background, overlay: overlay, settings: try checked(settings))
    }

    /// The background and the overlay, each decoded for its place on the canvas.
    private static func decoded(
        background: [UInt8], overlay: [UInt8]?, settings: ThumbnailSettings
    ) throws(ThumbnailError) -> (background: PlacedImage, overlay: PlacedImage?) {
        let canvas = PixelRect(x: 0, y: 0, width: settings.canvasWidth, height: settings.canvasHeight)
        let backgroundImage = try placed(background, else: ThumbnailError.background) { imageWidth, imageHeight in
            settings.backgroundScaling.placement(width: imageWidth, height: imageHeight, on: canvas)
        }
        let overlayImage = try overlay.map { bytes throws(ThumbnailError) in
            try placed(bytes, else: ThumbnailError.overlay, settings.placement(ofOverlayWidth:height:))
        }
        return (backgroundImage, overlayImage)
    }

    private static func checked(_ settings: ThumbnailSettings) throws(ThumbnailError) -> ThumbnailSettings {
        do { return try settings.validated() } catch { throw .settings(error) }
    }

    private static func placed(
        _ bytes: [UInt8], else failure: (ImageError) -> ThumbnailError, _ place: (Int, Int) -> Placement?
    ) throws(ThumbnailError) -> PlacedImage {
        do { return try PlacedImage(bytes, place: place) } catch { throw failure(error) }
    }
}
