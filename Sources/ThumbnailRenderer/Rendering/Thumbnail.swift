import PodcastDomain

/// A thumbnail drawn at full canvas size, held in memory: encode it for an export, or shrink it for the
/// library with ``stored()``.
///
/// Sendable because nothing changes its pixels after rendering; encoding and shrinking only read them.
public struct Thumbnail: @unchecked Sendable {
    let image: GDImage
    /// Points: the size the text was drawn at, which fitting may have made smaller than the set size (the
    /// set size when there was no text to draw).
    public let fontSize: Double
    /// The text's lines as drawn, blank lines between lines with text included; 0 when nothing inked.
    public let lineCount: Int

    /// Pixels.
    public var width: Int { image.width }
    public var height: Int { image.height }

    /// The full-size image as PNG or JPEG (quality 80), as an export writes it.
    public func encoded(as format: ImageFormat) throws(ThumbnailError) -> [UInt8] {
        guard let bytes = image.encoded(as: format) else { throw .outOfMemory(width: width, height: height) }
        return bytes
    }

    /// The image as the library keeps it: at most ``EpisodeDecider/storedThumbnailSide`` pixels on its
    /// longest side (scaled down, never up), in ``storedFormat``.
    public func stored() throws(ThumbnailError) -> StoredThumbnail {
        let small = try shrunkForStorage()
        return StoredThumbnail(bytes: try small.encodedForStorage(), format: small.storedFormat, width: small.width, height: small.height)
    }

    /// JPEG (quality 80) where every pixel is opaque, a tenth of a PNG's size for a photograph with an
    /// overlay; PNG, its alpha kept, where the image has any transparency, which JPEG cannot hold. A
    /// render is opaque: its canvas starts black and everything is blended onto it.
    package var storedFormat: ImageFormat { image.isOpaque ? .jpeg : .png }

    /// The image encoded in ``storedFormat``: the last step of ``stored()``, which the benchmark times
    /// on its own as the codec's share of storing.
    package func encodedForStorage() throws(ThumbnailError) -> [UInt8] {
        guard let bytes = image.encoded(as: storedFormat, alpha: true) else { throw .outOfMemory(width: width, height: height) }
        return bytes
    }

    /// The first step of ``stored()``: the image at the size the library keeps, its alpha kept.
    package func shrunkForStorage() throws(ThumbnailError) -> Thumbnail {
        let scale = Double(EpisodeDecider.storedThumbnailSide) / Double(max(width, height))
        guard scale < 1 else { return self }
        return try resized(width: Int((Double(width) * scale).rounded()), height: Int((Double(height) * scale).rounded()))
    }

    /// The whole image resampled to `width` x `height` pixels (at least 1 each), each pixel's alpha the
    /// average of the area it covers rather than blended onto black.
    private func resized(width: Int, height: Int) throws(ThumbnailError) -> Thumbnail {
        let target = PixelRect(x: 0, y: 0, width: max(width, 1), height: max(height, 1))
        guard let resized = GDImage(width: target.width, height: target.height) else {
            throw .outOfMemory(width: target.width, height: target.height)
        }
        resized.blends = false
        try resized.draw(image, from: image.bounds, to: target)
        resized.blends = true
        return Thumbnail(image: resized, fontSize: fontSize, lineCount: lineCount)
    }
}
