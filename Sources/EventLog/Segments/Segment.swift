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
        guard name.hasSuffix(".seg"), name.utf8.count == 12, name.utf8.prefix(8).allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        return UInt32(name.prefix(8))
    }
}

/// A segment as a listing of the log read it: its header, and the file it read the header from, held
/// open so that the file's inode number names no other file while the log instance lives. A later
/// listing that finds the segment's name still naming that inode has found the same file, whose header
/// never changes, and skips reading it again.
struct ListedSegment {
    let header: SegmentHeader
    let file: File
    let inode: UInt64

    /// How many segments' files a log instance holds open for this; a longer log reads every header at
    /// every listing, as it would without, so that no library can use up the process's descriptors.
    static let heldLimit = 256
}
