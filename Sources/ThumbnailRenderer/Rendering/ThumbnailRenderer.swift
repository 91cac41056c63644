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
        let backgroundImage = try placed(background, else: ThumbnailError.background) { imageWidth, imageHeight in
            settings.backgroundScaling.placement(
                width: imageWidth, height: imageHeight, on: PixelRect(x: 0, y: 0, width: width, height: height))
        }
        let overlayImage = try overlay.map { bytes throws(ThumbnailError) in
            try placed(bytes, else: ThumbnailError.overlay, settings.placement(ofOverlayWidth:height:))
        }
        guard let canvas = GDImage(width: width, height: height) else { throw .outOfMemory(width: width, height: height) }

        try canvas.draw(backgroundImage)
        if let overlayImage { try canvas.draw(overlayImage) }
        let drawn = try canvas.drawText(text, font: font, settings: settings)
        return Thumbnail(image: canvas, hasOverlay: overlayImage != nil, fontSize: drawn.fontSize, lineCount: drawn.lineCount)
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
