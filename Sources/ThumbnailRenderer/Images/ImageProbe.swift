import PodcastDomain

/// An image's format and size, once it is known to be one the renderer can draw.
public struct ImageInfo: Hashable, Sendable {
    public let format: ImageFormat
    /// Pixels, of the picture as seen: a JPEG whose Exif orientation turns it a quarter (a photo taken
    /// with the camera upright, orientations 5 to 8) is as wide as its stored pixels are high. That is the
    /// size drawn, so the size to compare with the canvas.
    public let width: Int
    public let height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}

/// Checks image bytes before anything is stored: the CLI probes a background or an overlay, then
/// appends its reference with the size read here.
public enum ImageProbe {
    /// The longest side accepted, in pixels: the domain's largest ``ImageRef``.
    public static let largestSide = ImageRef.sides.upperBound
    /// The most pixels accepted: as many as the largest canvas holds (8192 x 8192). Decoded, that is
    /// 256 MiB at 4 bytes a pixel; a larger image would cost memory and time without showing more.
    public static let largestPixelCount = largestCanvasSide * largestCanvasSide

    static let largestCanvasSide = ThumbnailSettings.canvasSides.upperBound

    /// Reads the format, size and orientation from the header, refuses sizes out of bounds before
    /// decoding, then decodes the whole image, so that what passes here renders.
    public static func probe(_ bytes: [UInt8]) throws(ImageError) -> ImageInfo {
        let header = try header(bytes)
        _ = try GDImage.decoded(bytes, header: header)
        return ImageInfo(format: header.format, width: header.displayedWidth, height: header.displayedHeight)
    }

    /// The header, when its size is one the renderer accepts.
    static func header(_ bytes: [UInt8]) throws(ImageError) -> ImageHeader {
        let header = try ImageHeader(bytes)
        guard header.width > 0, header.height > 0 else { throw .empty(width: header.width, height: header.height) }
        guard header.width <= largestSide, header.height <= largestSide,
            header.width * header.height <= largestPixelCount
        else { throw .tooLarge(width: header.width, height: header.height) }
        return header
    }
}
