import CoreValues
import PodcastDomain

/// A thumbnail encoded as the library stores it, with what its ``RenderedThumbnail`` needs.
public struct StoredThumbnail: Hashable, Sendable {
    public let bytes: [UInt8]
    public let format: ImageFormat
    /// Pixels, at most ``EpisodeDecider/storedThumbnailSide`` on the longest side.
    public let width: Int
    public let height: Int

    /// What a `recordThumbnail` command carries, once `bytes` are stored as `blob`; `digest` is the
    /// ``ThumbnailInputDigest`` of what was drawn.
    public func rendered(blob: BlobRef, inputs: ThumbnailInputs, digest: ThumbnailInputDigest? = nil) -> RenderedThumbnail {
        RenderedThumbnail(
            image: ImageRef(blob: blob, width: width, height: height), format: format, inputs: inputs,
            inputsDigest: digest?.sha256)
    }
}
