/// The first 40 bytes of every segment: an LZ4 *skippable* frame, so `lz4 -dc` passes over it,
/// holding what a reader must know before the first commit.
///
/// | bytes | field |
/// |---|---|
/// | 0-3 | 0x184D2A50, skippable-frame magic (little-endian) |
/// | 4-7 | 32, the payload's length |
/// | 8-15 | `EPISODIC` in ASCII |
/// | 16-19 | log format version |
/// | 20-23 | segment number (the file's name) |
/// | 24-31 | position of the segment's first event |
/// | 32-35 | generation: 0 as appended, +1 each time compaction rewrites the segment |
/// | 36-39 | 0, reserved: readers ignore it, verify reports anything else |
struct SegmentHeader: Equatable {
    static let size = 40
    static let tag = Array("EPISODIC".utf8)
    /// The log format this build writes into new segments, and the newest it reads: the library's.
    static let formatVersion: UInt32 = LibraryLayout.formatVersion

    var number: UInt32
    var firstPosition: LogPosition
    var generation: UInt32
    var formatVersion: UInt32 = SegmentHeader.formatVersion
    /// The reserved word as found; written as 0.
    var reserved: UInt32 = 0

    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.size)
        out.appendLittleEndian(LZ4Frame.skippableMagicRange.lowerBound)
        out.appendLittleEndian(UInt32(Self.size - 8))
        out.append(contentsOf: Self.tag)
        out.appendLittleEndian(formatVersion)
        out.appendLittleEndian(number)
        out.appendLittleEndian(firstPosition.rawValue)
        out.appendLittleEndian(generation)
        out.appendLittleEndian(UInt32(0))
        return out
    }

    enum ParseFailure: Error, Equatable {
        case tooShort
        case notASegment
        case newerFormat(UInt32)
    }

    static func parse(_ bytes: [UInt8]) throws(ParseFailure) -> SegmentHeader {
        guard bytes.count >= size else { throw .tooShort }
        guard bytes.littleEndian(at: 0, as: UInt32.self) == LZ4Frame.skippableMagicRange.lowerBound,
            bytes.littleEndian(at: 4, as: UInt32.self) == UInt32(size - 8),
            Array(bytes[8..<16]) == tag
        else { throw .notASegment }
        let version = bytes.littleEndian(at: 16, as: UInt32.self)
        guard version >= 1 else { throw .notASegment }
        guard version <= formatVersion else { throw .newerFormat(version) }
        return SegmentHeader(
            number: bytes.littleEndian(at: 20, as: UInt32.self),
            firstPosition: LogPosition(bytes.littleEndian(at: 24, as: UInt64.self)),
            generation: bytes.littleEndian(at: 32, as: UInt32.self),
            formatVersion: version,
            reserved: bytes.littleEndian(at: 36, as: UInt32.self))
    }
}
