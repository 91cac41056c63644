import PodcastDomain

/// Draws thumbnails. Rendering is a pure function: the same bytes, settings, text and font always give
/// the same pixels, and nothing is read or written but the font file.
public enum ThumbnailRenderer {
    /// Raise it whenever a change to drawing changes pixels: every input digest includes it, so that
    /// thumbnails drawn by an older renderer no longer match.
    public static let version = 2

    /// Draws a thumbnail at the settings' canvas size: the background scaled and centred as the settings
    /// say (black where it does not reach), the overlay over it as the settings place it (blended by its
    /// alpha), then the text.
    ///
    /// `background` and `overlay` are PNG or JPEG bytes, checked as ``ImageProbe`` checks them, and drawn
    /// the right way up as a JPEG's Exif orientation says.
    public static func render(
        background: [UInt8], overlay: [UInt8]?, settings: ThumbnailSettings, text: String, font: ThumbnailFont
    ) throws(ThumbnailError) -> Thumbnail {
        let settings = try checked(settings)
        let backgroundImage = try decoded(background, else: ThumbnailError.background)
        let overlayImage = try overlay.map { bytes throws(ThumbnailError) in
            try decoded(bytes, else: ThumbnailError.overlay)
        }
        let width = settings.canvasWidth, height = settings.canvasHeight
        guard let canvas = GDImage(width: width, height: height) else { throw .outOfMemory(width: width, height: height) }

        let background = settings.backgroundScaling.placement(
            width: backgroundImage.width, height: backgroundImage.height, on: canvas.bounds)
        canvas.draw(backgroundImage, from: background.from, to: background.to)
        if let overlayImage, let overlay = settings.placement(ofOverlayWidth: overlayImage.width, height: overlayImage.height) {
            canvas.draw(overlayImage, from: overlay.from, to: overlay.to)
        }
        try canvas.drawText(text, font: font, settings: settings)
        return Thumbnail(image: canvas, hasOverlay: overlayImage != nil)
    }

    private static func checked(_ settings: ThumbnailSettings) throws(ThumbnailError) -> ThumbnailSettings {
        do { return try settings.validated() } catch { throw .settings(error) }
    }

    private static func decoded(
        _ bytes: [UInt8], else failure: (ImageError) -> ThumbnailError
    ) throws(ThumbnailError) -> GDImage {
        do { return try GDImage.decoded(bytes) } catch { throw failure(error) }
    }
}
