/// Where one event lives: its stream (by hash), its position, its frame and its line in that frame.
///
/// 32 bytes on disk, little-endian: hash, position (8 each), segment, frame offset, line offset, check (4 each).
/// The check word lets a reader tell a written entry from the zeros or garbage a crash leaves at the end of
/// the unsynced index tail.
struct IndexEntry: Equatable {
    static let size = 32

    var streamHash: UInt64
    var position: UInt64
    var segment: UInt32
    /// Byte offset of the frame in its segment file.
    var frameOffset: UInt32
    /// Byte offset of the event's line in the frame's decoded content.
    var lineOffset: UInt32

    init(streamHash: UInt64, position: UInt64, segment: UInt32, frameOffset: UInt32, lineOffset: UInt32) {
        self.streamHash = streamHash
        self.position = position
        self.segment = segment
        self.frameOffset = frameOffset
        self.lineOffset = lineOffset
    }

    var check: UInt32 {
        var mixed = streamHash ^ 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ position) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (UInt64(segment) << 32 | UInt64(frameOffset))) &* 0x94D0_49BB_1331_11EB
        mixed = (mixed ^ UInt64(lineOffset)) &* 0xBF58_476D_1CE4_E5B9
        return UInt32(truncatingIfNeeded: mixed ^ (mixed >> 31))
    }

    func append(to out: inout [UInt8]) {
        out.appendLittleEndian(streamHash)
        out.appendLittleEndian(position)
        out.appendLittleEndian(segment)
        out.appendLittleEndian(frameOffset)
        out.appendLittleEndian(lineOffset)
        out.appendLittleEndian(check)
    }

    /// Reads the entry at `offset`; nil when its check word does not match.
    static func read(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> IndexEntry? {
        let entry = IndexEntry(
            streamHash: bytes.littleEndian(at: offset),
            position: bytes.littleEndian(at: offset + 8),
            segment: bytes.littleEndian(at: offset + 16),
            frameOffset: bytes.littleEndian(at: offset + 20),
            lineOffset: bytes.littleEndian(at: offset + 24))
        return entry.check == bytes.littleEndian(at: offset + 28, as: UInt32.self) ? entry : nil
    }

    /// Sorted-run order: by stream, then by position.
    static func streamOrder(_ a: IndexEntry, _ b: IndexEntry) -> Bool {
        (a.streamHash, a.position) < (b.streamHash, b.position)
    }
}

/// The stable hash of a stream id that the index files are keyed by (FNV-1a 64 of its bytes).
func streamHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 { FNV1a.hash(bytes) }

func streamHash(_ stream: StreamID) -> UInt64 { FNV1a.hash(stream.rawValue) }
