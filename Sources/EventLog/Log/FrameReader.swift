/// The decoder and buffers one read needs.
///
/// Each public read makes its own, so that a read started inside another read's callback (a stream
/// read while scanning, say) cannot overwrite the frame the outer read is walking. Internal work that
/// calls no user code (recovery, verification, compaction) shares the log's ``EventLog/maintenance``.
final class FrameReader {
    let decoder = LZ4Decoder()
    /// Raw segment bytes, read ahead.
    let fileBuffer: ByteBuffer
    /// The decoded content of the current frame.
    let content: ByteBuffer
    /// Which frame `content` holds, so that stream reads meeting it again do not decode it twice.
    var decodedFrame: (segment: UInt32, offset: UInt32, length: Int)?

    /// `readAhead` is how much a scan reads at a time: large for scans, small for point lookups.
    init(readAhead: Int) {
        fileBuffer = ByteBuffer(capacity: readAhead)
        content = ByteBuffer(capacity: 1 << 16)
    }

    static let scanReadAhead = 1 << 20
    static let lookupReadAhead = 16 << 10

    /// Decodes `frame` into ``content``; the frame's content length, or the decoder's failure.
    func decode(_ frame: UnsafeRawBufferPointer, checkingChecksum: Bool = true) throws(LZ4Decoder.Failure) -> Int {
        decodedFrame = nil
        return try decoder.decode(frame, into: content, checkingChecksum: checkingChecksum)
    }
}
