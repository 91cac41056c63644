/// A thumbnail input that renders, but poorly: said when the input is given and when the thumbnail is
/// drawn, and listed by `episode show`. Worked out from the episode's state (the images' sizes are in
/// the log), so it is never out of step with the inputs it is about.
public enum ThumbnailWarning: Hashable, Sendable, CustomStringConvertible {
    /// The background has fewer pixels than the canvas on a side, so it is enlarged and looks soft.
    case backgroundSmallerThanCanvas(background: Size, canvas: Size)
    /// Under ``OverlayPlacement/fill`` the overlay's shape differs from the canvas's, so the part that
    /// overflows is cut off: `cropped` canvas pixels across (or down, when `acrossCropped` is false).
    case overlayCropped(overlay: Size, canvas: Size, cropped: Int, acrossCropped: Bool)

    /// Pixels.
    public struct Size: Hashable, Sendable, CustomStringConvertible {
        public var width: Int
        public var height: Int

        public var description: String { "\(width) x \(height)" }
    }

    /// A short name for scripts: `backgroundSmallerThanCanvas`, `overlayCropped`.
    public var kind: String {
        switch self {
        case .backgroundSmallerThanCanvas: "backgroundSmallerThanCanvas"
        case .overlayCropped: "overlayCropped"
        }
    }

    public var description: String {
        switch self {
        case let .backgroundSmallerThanCanvas(background, canvas):
            "the background is \(background) pixels, smaller than the \(canvas) canvas, so it is enlarged and will "
                + "look soft. Use an image of at least \(canvas) pixels."
        case let .overlayCropped(overlay, canvas, cropped, acrossCropped):
            "the overlay is \(overlay) pixels, another shape than the \(canvas) canvas, so filling the canvas cuts off "
                + "\(cropped) pixels of its \(acrossCropped ? "width" : "height"). Use --overlay-placement fit or "
                + "original to keep it whole."
        }
    }

    /// The warnings for drawing `background` and `overlay` with `settings`, in that order.
    public static func of(background: ImageRef?, overlay: ImageRef?, settings: ThumbnailSettings) -> [ThumbnailWarning] {
        let canvas = Size(width: settings.canvasWidth, height: settings.canvasHeight)
        var warnings: [ThumbnailWarning] = []
        if let background, background.width < canvas.width || background.height < canvas.height {
            warnings.append(.backgroundSmallerThanCanvas(background: Size(width: background.width, height: background.height), canvas: canvas))
        }
        if let overlay, settings.overlayPlacement == .fill, let crop = fillCrop(of: overlay, on: canvas) {
            warnings.append(.overlayCropped(
                overlay: Size(width: overlay.width, height: overlay.height), canvas: canvas, cropped: crop.pixels,
                acrossCropped: crop.across))
        }
        return warnings
    }

    /// How much of an image scaled to cover `canvas` overflows it, in canvas pixels, on the side that
    /// overflows; nil when less than a pixel does (the same shape, give or take rounding).
    private static func fillCrop(of image: ImageRef, on canvas: Size) -> (pixels: Int, across: Bool)? {
        // Compared as products, so that no rounding decides whether the shapes differ.
        let imageWider = image.width * canvas.height, canvasWider = canvas.width * image.height
        if imageWider > canvasWider {
            let overflow = (imageWider - canvasWider) / image.height
            return overflow >= 1 ? (overflow, true) : nil
        }
        let overflow = (canvasWider - imageWider) / image.width
        return overflow >= 1 ? (overflow, false) : nil
    }
}

extension Episode {
    /// What would make this episode's thumbnail poor, as its inputs stand now.
    public var thumbnailWarnings: [ThumbnailWarning] {
        ThumbnailWarning.of(background: background, overlay: overlay, settings: thumbnailSettings)
    }
}
