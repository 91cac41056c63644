import ThumbnailRenderer

/// JPEGs as cameras write them: the sensor's rows stored as they came, and an APP1 Exif segment whose
/// Orientation tag says how to turn them to be seen the right way up.
enum ExifPhotos {
    /// 96 x 64, upright: four coloured quarters and a white square in the top-left corner, so that any
    /// mirror or turn shows. Edges fall on 16-pixel lines, JPEG's blocks, so every orientation of it
    /// compresses alike.
    static let upright = PixelBuffer(width: 96, height: 64) { x, y in
        if x < 16 && y < 16 { return (255, 255, 255, 255) }
        switch (x < 48, y < 32) {
        case (true, true): return (200, 40, 40, 255)
        case (false, true): return (40, 160, 60, 255)
        case (true, false): return (40, 70, 200, 255)
        case (false, false): return (230, 200, 40, 255)
        }
    }

    /// `picture` as a camera stores it when the tag says `orientation`, with that tag: what the tag
    /// undoes, done to the picture.
    static func photo(of picture: PixelBuffer, orientation: Int, bigEndian: Bool = true) throws -> [UInt8] {
        let stored = switch orientation {
        case 2: picture.mirrored()
        case 3: picture.turnedClockwise().turnedClockwise()
        case 4: picture.mirrored().turnedClockwise().turnedClockwise()
        case 5: picture.mirrored().turnedCounterclockwise()
        case 6: picture.turnedCounterclockwise()
        case 7: picture.mirrored().turnedClockwise()
        case 8: picture.turnedClockwise()
        default: picture
        }
        return inserting(app1: exif(orientation: orientation, bigEndian: bigEndian), into: try stored.encoded(as: .jpeg))
    }

    /// An APP1 payload, `Exif\0\0` then TIFF in either byte order, whose first directory holds an image
    /// width (a LONG, so that the reader must step over an entry) and then the orientation, unless nil.
    static func exif(orientation: Int?, bigEndian: Bool) -> [UInt8] {
        func short(_ value: Int) -> [UInt8] { bytes(value, count: 2, bigEndian: bigEndian) }
        func long(_ value: Int) -> [UInt8] { bytes(value, count: 4, bigEndian: bigEndian) }
        var entries = [short(0x0100) + short(4) + long(1) + long(96)]
        if let orientation { entries.append(short(0x0112) + short(3) + long(1) + short(orientation) + short(0)) }
        let byteOrder = Array((bigEndian ? "MM" : "II").utf8)
        let tiff = byteOrder + short(42) + long(8) + short(entries.count) + entries.flatMap { $0 } + long(0)
        return Array("Exif\0\0".utf8) + tiff
    }

    /// `jpeg` with an APP1 segment holding `payload` right after its start-of-image marker, where cameras
    /// put it.
    static func inserting(app1 payload: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg.prefix(2)) + [0xFF, 0xE1] + bytes(payload.count + 2, count: 2, bigEndian: true) + payload + jpeg.dropFirst(2)
    }

    /// The payloads of a JPEG's APP1 segments, in order, up to its pixels (start of scan).
    static func app1Segments(of jpeg: [UInt8]) -> [[UInt8]] {
        var segments: [[UInt8]] = [], index = 2
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF, jpeg[index + 1] != 0xDA {
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            if jpeg[index + 1] == 0xE1 { segments.append(Array(jpeg[index + 4..<min(index + 2 + length, jpeg.count)])) }
            index += 2 + length
        }
        return segments
    }

    private static func bytes(_ value: Int, count: Int, bigEndian: Bool) -> [UInt8] {
        let big = (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * (count - 1 - $0))) }
        return bigEndian ? big : big.reversed()
    }
}

extension PixelBuffer {
    /// Left and right swapped.
    func mirrored() -> PixelBuffer {
        PixelBuffer(width: width, height: height) { x, y in self[width - 1 - x, y] }
    }

    /// A quarter turn clockwise: the left column, read upwards, becomes the top row.
    func turnedClockwise() -> PixelBuffer {
        PixelBuffer(width: height, height: width) { x, y in self[y, height - 1 - x] }
    }

    /// A quarter turn counterclockwise: the right column, read downwards, becomes the top row.
    func turnedCounterclockwise() -> PixelBuffer {
        PixelBuffer(width: height, height: width) { x, y in self[width - 1 - y, x] }
    }

    private subscript(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let index = (y * width + x) * 4
        return (rgba[index], rgba[index + 1], rgba[index + 2], rgba[index + 3])
    }
}
