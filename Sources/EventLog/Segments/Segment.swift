/// One segment file as found on disk: `log/NNNNNNNN.seg`, numbered from 1 without gaps.
struct Segment: Equatable {
    var header: SegmentHeader
    var path: String
    /// The file's size when it was last looked at, in bytes.
    var size: UInt64

    var number: UInt32 { header.number }
    var name: String { Self.name(of: number) }

    static func name(of number: UInt32) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".seg"
    }

    /// The segment number a file name stands for, if it is a segment's name.
    static func number(inName name: String) -> UInt32? {
        guard name.hasSuffix(".seg"), name.utf8.count == 12 else { return nil }
        return UInt32(name.prefix(8))
    }
}
