import CoreValues

/// Why an image cannot be used. Each message says what is wrong and what to do instead.
public enum ImageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes start like neither a PNG nor a JPEG.
    case notAnImage
    /// The header is readable but the image is not: cut short, or damaged.
    case damaged(ImageFormat)
    /// A side of 0 pixels.
    case empty(width: Int, height: Int)
    /// Above ``ImageProbe/largestSide`` or ``ImageProbe/largestPixelCount``.
    case tooLarge(width: Int, height: Int)

    public var description: String {
        switch self {
        case .notAnImage:
            "this is not a PNG or JPEG image. Export the picture as PNG or JPEG and try again."
        case .damaged(let format):
            "this \(format.name) image is damaged or cut short, so it cannot be decoded. "
                + "Export it again from the original, or copy it again if a download or copy was interrupted."
        case let .empty(width, height):
            "this image is \(width) x \(height) pixels, so there is nothing to draw. "
                + "Use an image with at least one pixel on each side."
        case let .tooLarge(width, height):
            "this image is \(width) x \(height) pixels, larger than the \(ImageProbe.largestSide) pixels a side "
                + "and \(ImageProbe.largestPixelCount / 1_000_000) megapixels in all that can be used. "
                + "Scale it down (the largest canvas is \(ImageProbe.largestCanvasSide) pixels a side) and try again."
        }
    }
}

extension ImageError: ClassifiedError {
    public var kind: ErrorKind { .refused }
}
