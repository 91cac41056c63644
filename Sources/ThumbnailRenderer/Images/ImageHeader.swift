/// What an image's first bytes say: its format, size and orientation, read without decoding it, so that
/// a huge image is refused before its pixels are allocated.
struct ImageHeader: Hashable {
    let format: ImageFormat
    /// The stored pixels, as the decoder gives them: for a JPEG, before its orientation turns them.
    let width: Int
    let height: Int
    /// How the stored pixels are turned to be seen: a JPEG's Exif orientation; a PNG is upright.
    let orientation: ExifOrientation

    /// The size of the picture as seen: the stored size, its sides swapped by a quarter turn.
    var displayedWidth: Int { orientation.swapsSides ? height : width }
    var displayedHeight: Int { orientation.swapsSides ? width : height }
}

extension ImageHeader {
    /// Throws ``ImageError/notAnImage`` for an unknown signature, ``ImageError/damaged(_:)`` when the
    /// header itself is cut short or malformed.
    init(_ bytes: [UInt8]) throws(ImageError) {
        if bytes.starts(with: Self.pngSignature) {
            format = .png
            (width, height) = try Self.pngSize(bytes)
            orientation = .up
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            format = .jpeg
            (width, height, orientation) = try Self.jpegFrame(bytes)
        } else {
            throw .notAnImage
        }
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The first chunk is IHDR: length, "IHDR", then width and height as big-endian 32-bit integers.
    private static func pngSize(_ bytes: [UInt8]) throws(ImageError) -> (Int, Int) {
        guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { throw .damaged(.png) }
        return (bigEndian(bytes, at: 16, count: 4), bigEndian(bytes, at: 20, count: 4))
    }

    /// Walks the segments up to the first start-of-frame marker, which holds height then width, reading
    /// the orientation from the first APP1 Exif segment on the way (other APP1 segments hold XMP).
    ///
    /// The end-of-image marker must follow it: libjpeg decodes a file cut short without failing, filling
    /// the missing rows with grey, so a missing end is the sign of a cut. (Entropy-coded data never holds
    /// FF D9, and an embedded Exif preview's end comes before the frame header.)
    private static func jpegFrame(_ bytes: [UInt8]) throws(ImageError) -> (Int, Int, ExifOrientation) {
        var index = 2
        var orientation: ExifOrientation?
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { throw .damaged(.jpeg) }
            let marker = bytes[index + 1]
            index += 2
            switch marker {
            case 0xFF: index -= 1  // fill byte before a marker
            case 0x01, 0xD0...0xD8: continue  // markers without a length
            case 0xD9, 0xDA: throw .damaged(.jpeg)  // the end, or the pixels, before any frame header
            default:
                guard index + 2 <= bytes.count else { throw .damaged(.jpeg) }
                let length = bigEndian(bytes, at: index, count: 2)
                if startsFrame(marker) {
                    guard length >= 7, index + 7 <= bytes.count, endsImage(bytes, after: index) else { throw .damaged(.jpeg) }
                    let (width, height) = (bigEndian(bytes, at: index + 5, count: 2), bigEndian(bytes, at: index + 3, count: 2))
                    return (width, height, orientation ?? .up)
                }
                guard length >= 2 else { throw .damaged(.jpeg) }
                if marker == 0xE1, orientation == nil {
                    let payload = bytes[min(index + 2, bytes.count)..<min(index + length, bytes.count)]
                    orientation = ExifOrientation(app1: payload)
                }
                index += length
            }
        }
        throw .damaged(.jpeg)
    }

    /// Whether an end-of-image marker (FF D9) comes after `index`; searched from the end, where it is.
    private static func endsImage(_ bytes: [UInt8], after index: Int) -> Bool {
        stride(from: bytes.count - 2, to: index, by: -1).contains { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD9 }
    }

    /// SOF0 to SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    private static func startsFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
    }

    private static func bigEndian(_ bytes: [UInt8], at index: Int, count: Int) -> Int {
        bytes[index..<index + count].reduce(0) { $0 << 8 | Int($1) }
    }
}
