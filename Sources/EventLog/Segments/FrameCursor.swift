/// Walks the frames of one segment file in order, through one reusable read buffer.
///
/// It finds where each frame ends from the frame's own block sizes; it does not decode or check checksums.
/// Memory stays at the size of the largest frame met (at least 1 MiB), however long the file.
struct FrameCursor {
    enum Step {
        /// A structurally complete frame starting at `offset`. `bytes` is valid until the next call.
        case frame(offset: UInt64, bytes: UnsafeRawBufferPointer)
        /// The walk reached `end` exactly.
        case end
        /// The bytes from `offset` to `end` are not a whole frame.
        case incomplete(offset: UInt64)
        /// The bytes at `offset` are not an LZ4 frame.
        case invalid(offset: UInt64, reason: String)
    }

    let file: File
    /// Where the walk stops: the file's size when it began, so a concurrent append is never half-read.
    let end: UInt64
    /// Where the next frame starts.
    private(set) var offset: UInt64
    private let buffer: ByteBuffer
    /// The file offset of the buffer's first byte, and how many bytes it holds.
    private var window: (start: UInt64, count: Int) = (0, 0)
    /// The last read returned less than asked: the file is shorter than `end` (cut by a writer's recovery).
    private var shortRead = false

    /// How many bytes the next read asks for: it grows when a frame turns out to be larger.
    private var readSize: Int

    /// `readAhead` is what each read asks for: large for a scan, small for one frame looked up by the index.
    init(file: File, from offset: UInt64, end: UInt64, buffer: ByteBuffer, readAhead: Int = 1 << 20) {
        self.file = file
        self.offset = offset
        self.end = end
        self.buffer = buffer
        self.readSize = readAhead
        buffer.reserve(readAhead)
    }

    mutating func next() throws(EventLogError) -> Step {
        guard offset < end else { return .end }
        while true {
            let skip = Int(offset - window.start)
            let held = offset >= window.start ? window.count - skip : 0
            if held > 0 {
                switch LZ4Frame.measure(buffer.bytes(skip..<(skip + held))) {
                case .complete(let length):
                    let start = offset
                    offset += UInt64(length)
                    return .frame(offset: start, bytes: buffer.bytes(skip..<(skip + length)))
                case .invalid(let reason):
                    return .invalid(offset: offset, reason: reason)
                case .incomplete:
                    if shortRead || UInt64(held) == end - offset { return .incomplete(offset: offset) }
                    if held >= readSize {
                        readSize *= 4
                        buffer.reserve(readSize)
                    }
                }
            }
            try fill()
            // Nothing more to read where the walk expected bytes: the file is shorter than when the walk
            // began (cut by a writer's recovery, or replaced by a compaction). Reading again cannot help.
            if window.count == 0 { return .incomplete(offset: offset) }
        }
    }

    /// Loads the buffer with the file from `offset` on.
    private mutating func fill() throws(EventLogError) {
        let wanted = Int(min(UInt64(readSize), end - offset))
        let count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.storage[0..<wanted]), at: offset)
        window = (offset, count)
        shortRead = count < wanted
    }
}
