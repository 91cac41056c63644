import CoreValues
import EventLog
import PodcastDomain

/// Stand-ins for images: random bytes behind a JPEG or PNG signature, stored as blobs so that every
/// reference in the log resolves. Nothing decodes them; only their references and sizes reach events.
struct ImagePool {
    let backgrounds: [ImageRef]
    let overlays: [ImageRef]
    let artworks: [ImageRef]
    /// Rendered thumbnails are stored at 1024 x 576 at most.
    let renders: [ImageRef]

    /// Sizes are typical of each kind of image, times `scale`.
    static func make(scale: Int, count: Int, seed: UInt64, blobs: BlobStore) throws -> ImagePool {
        var random = SplitMix64(seed: seed)
        func images(_ n: Int, kilobytes: ClosedRange<Int>, png: Bool, width: Int, height: Int) throws -> [ImageRef] {
            try (0..<n).map { _ in
                let size = Int.random(in: kilobytes, using: &random) * 1_024 * scale
                var bytes: [UInt8] = png ? [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] : [0xFF, 0xD8, 0xFF, 0xE0]
                bytes.reserveCapacity(size)
                while bytes.count < size {
                    withUnsafeBytes(of: random.next()) { bytes += $0 }
                }
                return ImageRef(blob: try blobs.put(bytes), width: width, height: height)
            }
        }
        return ImagePool(
            backgrounds: try images(count, kilobytes: 300...800, png: false, width: 1920, height: 1080),
            overlays: try images(max(2, count / 4), kilobytes: 40...160, png: true, width: 1920, height: 1080),
            artworks: try images(count, kilobytes: 200...600, png: false, width: 3000, height: 3000),
            renders: try images(count, kilobytes: 60...150, png: false, width: 1024, height: 576))
    }
}
