import CoreValues
import EventLog
import PodcastDomain
import ThumbnailRenderer

extension Submission {
    /// An image as the domain refers to it: its blob and its size in pixels, read from the bytes. Bytes
    /// that are not a whole PNG or JPEG of a usable size are refused here, before anything is written.
    public static func image(_ bytes: [UInt8]) throws(ImageError) -> ImageRef {
        let info = try ImageProbe.probe(bytes)
        return ImageRef(blob: BlobStore.reference(for: bytes), width: info.width, height: info.height)
    }

    /// Sets the podcast's artwork to the image `bytes`.
    public static func setArtwork(_ bytes: [UInt8], of podcast: PodcastReference) throws -> Submission {
        Submission(.podcast(podcast, .setArtwork(try image(bytes))), blobs: [bytes])
    }

    /// Sets the overlay new episodes of the podcast start with.
    public static func setDefaultOverlay(_ bytes: [UInt8], of podcast: PodcastReference) throws -> Submission {
        Submission(.podcast(podcast, .setDefaultOverlay(try image(bytes))), blobs: [bytes])
    }

    /// Sets the background new episodes of the podcast start with (without one, they start with its artwork).
    public static func setDefaultBackground(_ bytes: [UInt8], of podcast: PodcastReference) throws -> Submission {
        Submission(.podcast(podcast, .setDefaultBackground(try image(bytes))), blobs: [bytes])
    }

    /// Sets the background the episode's thumbnail is drawn on.
    public static func setBackground(_ bytes: [UInt8], of episode: EpisodeReference) throws -> Submission {
        Submission(.episode(episode, .setBackground(try image(bytes))), blobs: [bytes])
    }

    /// Sets the overlay drawn over the episode's background.
    public static func setOverlay(_ bytes: [UInt8], of episode: EpisodeReference) throws -> Submission {
        Submission(.episode(episode, .setOverlay(try image(bytes))), blobs: [bytes])
    }
}
