/// How a photo's stored pixels are turned to be seen the right way up: the Orientation tag (0x0112) of
/// the first image directory (IFD0) of a JPEG's APP1 Exif segment, 1 to 8. Cameras store the sensor's
/// rows as they come and record how the camera was held.
///
/// Each case names what is done to the stored pixels to show them: a mirror is left to right, a turn is
/// clockwise. The last four swap the sides: the picture shown is as wide as the stored one is high.
enum ExifOrientation: Int, CaseIterable, Sendable {
    case up = 1
    case mirrored = 2
    case turnedHalf = 3
    /// Upside down: a mirror, then a half turn.
    case mirroredTurnedHalf = 4
    /// The diagonal from the top left swapped: a mirror, then three quarters of a turn.
    case mirroredTurnedThreeQuarters = 5
    case turnedQuarter = 6
    /// The other diagonal swapped: a mirror, then a quarter turn.
    case mirroredTurnedQuarter = 7
    case turnedThreeQuarters = 8

    /// Whether the picture shown is as wide as the stored one is high.
    var swapsSides: Bool { rawValue >= 5 }

    /// The orientation an APP1 segment's payload (what follows its length: `Exif\0\0`, then a TIFF header
    /// and its directories) records; nil when the segment is not Exif (XMP is APP1 too). A tag missing,
    /// cut short or out of range counts as ``up``: a picture drawn unturned beats one refused.
    init?(app1 payload: ArraySlice<UInt8>) {
        guard payload.starts(with: Self.signature) else { return nil }
        self = Self.read(tiff: Array(payload.dropFirst(Self.signature.count))) ?? .up
    }

    private static let signature = Array("Exif\0\0".utf8)

    private static let orientationTag = 0x0112
    /// TIFF's SHORT: an unsigned 16-bit integer.
    private static let shortType = 3

    private static func read(tiff: [UInt8]) -> ExifOrientation? {
        let bigEndian: Bool
        switch (tiff.first, tiff.dropFirst().first) {
        case (0x4D, 0x4D): bigEndian = true  // "MM", Motorola
        case (0x49, 0x49): bigEndian = false  // "II", Intel
        default: return nil
        }
        func integer(at offset: Int, bytes count: Int) -> Int? {
            guard offset >= 0, offset + count <= tiff.count else { return nil }
            let field = tiff[offset..<offset + count]
            return (bigEndian ? Array(field) : field.reversed()).reduce(0) { $0 << 8 | Int($1) }
        }
        guard integer(at: 2, bytes: 2) == 42, let directory = integer(at: 4, bytes: 4),
            let entries = integer(at: directory, bytes: 2)
        else { return nil }
        // Each entry: tag (2 bytes), type (2), count (4), then the value itself when it fits in 4 bytes.
        for entry in stride(from: directory + 2, to: directory + 2 + 12 * entries, by: 12) {
            guard entry + 12 <= tiff.count, let tag = integer(at: entry, bytes: 2) else { return nil }
            guard tag == orientationTag else { continue }
            guard integer(at: entry + 2, bytes: 2) == shortType, integer(at: entry + 4, bytes: 4) == 1,
                let value = integer(at: entry + 8, bytes: 2)
            else { return nil }
            return ExifOrientation(rawValue: value)
        }
        return nil
    }
}
