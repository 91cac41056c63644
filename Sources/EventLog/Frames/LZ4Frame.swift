import CLZ4

/// The LZ4 frame format (lz4.org, "LZ4 Frame Format Description"): what the log and the blob store write,
/// and what `lz4 -dc` reads back.
///
/// Every frame the log writes has its content checksum turned on, so a torn or flipped frame is always
/// caught, and its content size (except for empty content, which the format cannot tell from "unknown"),
/// so a reader knows how much room a frame needs before decoding it.
enum LZ4Frame {
    static let magic: UInt32 = 0x184D_2204
    /// Skippable frames carry 0x184D2A50 ... 0x184D2A5F; decoders (and `lz4 -dc`) pass over them.
    static let skippableMagicRange: ClosedRange<UInt32> = 0x184D_2A50...0x184D_2A5F
    /// A frame bigger than this is taken for damage rather than allocated.
    static let maximumContentSize = 1 << 30

    /// The result of walking a frame's structure without decoding it.
    enum Measure: Equatable {
        /// A structurally complete frame of this many bytes (its checksum is not yet checked).
        case complete(length: Int)
        /// The bytes end before the frame does.
        case incomplete
        /// The bytes are not an LZ4 frame.
        case invalid(String)
    }

    /// Walks the header and block sizes of the frame at the start of `bytes`.
    static func measure(_ bytes: UnsafeRawBufferPointer) -> Measure {
        guard bytes.count >= 7 else { return .incomplete }
        guard bytes.littleEndian(at: 0, as: UInt32.self) == magic else { return .invalid("no LZ4 frame magic") }
        let flags = bytes[4], descriptor = bytes[5]
        guard flags >> 6 == 0b01 else { return .invalid("unknown LZ4 frame version") }
        guard flags & 0b10 == 0, descriptor & 0b1000_1111 == 0 else { return .invalid("reserved bits set") }
        let blockSizeID = Int(descriptor >> 4 & 0b111)
        guard blockSizeID >= 4 else { return .invalid("unknown block size") }
        let maximumBlock = 1 << (8 + 2 * blockSizeID)
        let hasBlockChecksums = flags & 0b1_0000 != 0
        let hasContentSize = flags & 0b1000 != 0
        let hasContentChecksum = flags & 0b100 != 0
        let hasDictionaryID = flags & 0b1 != 0
        var offset = 6 + (hasContentSize ? 8 : 0) + (hasDictionaryID ? 4 : 0) + 1
        while true {
            guard bytes.count >= offset + 4 else { return .incomplete }
            let word = bytes.littleEndian(at: offset, as: UInt32.self)
            offset += 4
            if word == 0 { break }
            let size = Int(word & 0x7FFF_FFFF)
            guard size <= maximumBlock else { return .invalid("block of \(size) bytes exceeds its frame's maximum") }
            offset += size + (hasBlockChecksums ? 4 : 0)
        }
        offset += hasContentChecksum ? 4 : 0
        return bytes.count >= offset ? .complete(length: offset) : .incomplete
    }

    /// The content size written in the frame's header, if it has one.
    static func declaredContentSize(_ frame: UnsafeRawBufferPointer) -> Int? {
        guard frame.count >= 14, frame[4] & 0b1000 != 0 else { return nil }
        let size = frame.littleEndian(at: 6, as: UInt64.self)
        return size <= UInt64(maximumContentSize) ? Int(size) : nil
    }

    /// LZ4 turns at most about 255 bytes of content into one byte of frame, so a header that declares
    /// more than this for a frame of `frameLength` bytes is damaged: trusting it would allocate for
    /// content that cannot be there.
    static func mostContent(fromFrameOf frameLength: Int) -> Int { frameLength &* 256 &+ (1 << 16) }

    /// What the frame's descriptor says that the log never writes, if anything: the writer always
    /// records the content size of non-empty content, and uses neither dictionaries nor block checksums.
    static func unwrittenDescriptorFeature(_ frame: UnsafeRawBufferPointer) -> String? {
        guard frame.count >= 6 else { return nil }
        let flags = frame[4]
        if flags & 0b1 != 0 { return "its descriptor names a dictionary, which the log never uses" }
        if flags & 0b1_0000 != 0 { return "its descriptor turns on block checksums, which the log never writes" }
        if flags & 0b100 == 0 { return "its descriptor turns off the content checksum, which the log always writes" }
        if flags & 0b1000 == 0 { return "its descriptor has no content size, which the log always writes" }
        return nil
    }

    /// How hard to compress: the fast default for commits, LZ4-HC for compaction and archives.
    struct Settings {
        /// 0 for LZ4's fast mode; 3 to 12 for LZ4-HC.
        var level: Int32 = 0
        /// Linked blocks let each block refer back to the previous one: a better ratio for large frames.
        var linkedBlocks = true
        /// The largest block: small blocks let a torn frame's complete blocks still be read.
        var maximumBlockSize = LZ4F_max4MB

        /// Commits: fast, with 64 KiB blocks, so that a recovery report can name the positions of a torn
        /// commit's surviving blocks.
        static let commit = Settings(level: 0, linkedBlocks: true, maximumBlockSize: LZ4F_max64KB)
    }

    /// Appends `content` to `out` as one frame with content size and content checksum.
    static func compress(_ content: UnsafeRawBufferPointer, settings: Settings = .commit, into out: inout [UInt8]) {
        var preferences = preferences(settings, contentSize: content.count)
        let bound = LZ4F_compressFrameBound(content.count, &preferences)
        let start = out.count
        out.reserveCapacity(start + bound)
        out.append(contentsOf: repeatElement(0, count: bound))
        let written = out.withUnsafeMutableBytes { buffer in
            LZ4F_compressFrame(buffer.baseAddress! + start, bound, content.baseAddress, content.count, &preferences)
        }
        precondition(LZ4F_isError(written) == 0, "LZ4F_compressFrame: \(String(cString: LZ4F_getErrorName(written)))")
        out.removeLast(bound - written)
    }

    /// `content` as one frame, written into uninitialized room: the bound is the content's length and
    /// more, and pages of it the frame does not reach are never touched (a blob of 10 MB of blank lines
    /// compresses to kilobytes).
    static func compress(_ content: [UInt8], settings: Settings = .commit) -> [UInt8] {
        var preferences = preferences(settings, contentSize: content.count)
        let bound = LZ4F_compressFrameBound(content.count, &preferences)
        return [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            count = content.withUnsafeBytes { content in
                LZ4F_compressFrame(buffer.baseAddress!, bound, content.baseAddress, content.count, &preferences)
            }
            precondition(LZ4F_isError(count) == 0, "LZ4F_compressFrame: \(String(cString: LZ4F_getErrorName(count)))")
        }
    }

    /// The frame's preferences: content size and content checksum, and `settings`.
    private static func preferences(_ settings: Settings, contentSize: Int) -> LZ4F_preferences_t {
        var preferences = LZ4F_preferences_t()
        preferences.frameInfo.blockSizeID = settings.maximumBlockSize
        preferences.frameInfo.blockMode = settings.linkedBlocks ? LZ4F_blockLinked : LZ4F_blockIndependent
        preferences.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled
        preferences.frameInfo.contentSize = UInt64(contentSize)
        preferences.compressionLevel = settings.level
        return preferences
    }
}

/// Decodes frames, reusing one liblz4 context. Not thread-safe: one per reader.
final class LZ4Decoder {
    private var context: OpaquePointer?

    init() {
        let code = LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))
        precondition(LZ4F_isError(code) == 0 && context != nil, "cannot create an LZ4 decompression context")
    }

    deinit { LZ4F_freeDecompressionContext(context) }

    struct Failure: Error { let reason: String }

    /// Decodes the whole `frame` into the front of `buffer`, checking the content checksum unless told
    /// not to, and returns the content's length. The buffer only ever grows, so a reader that reuses it
    /// stops allocating.
    func decode(_ frame: UnsafeRawBufferPointer, into buffer: ByteBuffer, checkingChecksum: Bool = true) throws(Failure) -> Int {
        if let size = LZ4Frame.declaredContentSize(frame) {
            guard size <= LZ4Frame.mostContent(fromFrameOf: frame.count) else {
                throw Failure(reason: "its header declares \(size) bytes of content, more than \(frame.count) bytes can hold")
            }
            buffer.reserve(size)
            let produced = try run(frame, into: buffer.storage, capacity: size, stable: true, checkingChecksum: checkingChecksum)
            guard produced.finished, produced.output == size else {
                throw Failure(reason: produced.finished ? "content size does not match its header" : "frame is truncated")
            }
            return size
        }
        // No declared size (frames from other writers): grow until the frame ends.
        var capacity = max(frame.count * 4, 1 << 16, buffer.capacity)
        while true {
            buffer.reserve(capacity)
            let produced = try run(frame, into: buffer.storage, capacity: capacity, stable: true, checkingChecksum: checkingChecksum)
            if produced.finished { return produced.output }
            guard capacity < min(LZ4Frame.maximumContentSize, LZ4Frame.mostContent(fromFrameOf: frame.count)) else {
                throw Failure(reason: "frame is truncated")
            }
            capacity *= 2
        }
    }

    /// Decodes a frame that should be whole into a new array.
    func decode(_ frame: UnsafeRawBufferPointer) throws(Failure) -> [UInt8] {
        let buffer = ByteBuffer(capacity: LZ4Frame.declaredContentSize(frame) ?? 1 << 16)
        let count = try decode(frame, into: buffer)
        return Array(buffer.bytes(0..<count))
    }

    /// Decodes as much of a damaged or torn frame as liblz4 will; for recovery reports only.
    func decodePrefix(_ frame: UnsafeRawBufferPointer) -> [UInt8] {
        let declared = min(LZ4Frame.declaredContentSize(frame) ?? 0, LZ4Frame.mostContent(fromFrameOf: frame.count))
        let buffer = ByteBuffer(capacity: max(declared, 1 << 16))
        let produced = try? run(frame, into: buffer.storage, capacity: buffer.capacity, stable: false)
        return Array(buffer.bytes(0..<(produced?.output ?? 0)))
    }

    private func run(
        _ frame: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer, capacity: Int, stable: Bool,
        checkingChecksum: Bool = true
    ) throws(Failure) -> (output: Int, finished: Bool) {
        var options = LZ4F_decompressOptions_t()
        options.stableDst = stable ? 1 : 0
        options.skipChecksums = checkingChecksum ? 0 : 1
        var outputSize = capacity
        var inputSize = frame.count
        let hint = LZ4F_decompress(context, out.baseAddress, &outputSize, frame.baseAddress, &inputSize, &options)
        if LZ4F_isError(hint) != 0 {
            LZ4F_resetDecompressionContext(context)
            throw Failure(reason: String(cString: LZ4F_getErrorName(hint)))
        }
        if hint != 0 { LZ4F_resetDecompressionContext(context) }
        return (outputSize, hint == 0)
    }
}
