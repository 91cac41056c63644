import ThumbnailRenderer

/// Images the probe and the renderer must refuse, each broken in one way.
enum BadImages {
    /// The test background's PNG, cut in half.
    static var truncatedPNG: [UInt8] { Array(TestImages.background.prefix(TestImages.background.count / 2)) }

    /// The test background as a JPEG, its last third missing.
    static var truncatedJPEG: [UInt8] {
        let jpeg = try! PixelBuffer(decoding: TestImages.background).encoded(as: .jpeg)
        return Array(jpeg.prefix(jpeg.count * 2 / 3))
    }

    static let text = Array("Episode 42 show notes, not a picture.\n".utf8)

    /// A well-formed PNG header (signature, IHDR with its CRC) claiming `width` x `height`, then IEND:
    /// what a crafted file or an image bomb looks like to the probe.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // 8 bits a channel, true colour, default compression, filter and interlacing.
        let ihdr = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        return signature + chunk("IHDR", ihdr) + chunk("IEND", [])
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    /// PNG's CRC (ISO 3309, the one zlib computes), bit by bit: slow, and only for a few bytes.
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
