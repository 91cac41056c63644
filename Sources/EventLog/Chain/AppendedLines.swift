/// Puts back, line by line through one frame, the `prev`s that compaction left out: for readers that
/// show the log as it was appended (`episodic log --raw`), at the cost of hashing each commit read.
///
/// The first commit to begin in a compacted frame stores its `prev`, so a frame is enough: from that
/// commit on, each left-out `prev` is the hash of the commit before it in the frame.
struct AppendedLines {
    private var walker = CommitWalker(startsACommit: false)
    /// Holds the last line rebuilt, until the next.
    private let scratch = ByteBuffer(capacity: 1 << 12)

    /// Feeds the frame's next line (without its newline), in order from the frame's first, and returns
    /// it as appended: `line` itself, or a copy with its `prev`'s digits put back, valid until the next
    /// call. A line that does not parse, or whose `prev` the frame cannot tell, comes back as it is.
    mutating func next(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let envelope = try? EnvelopeParser.parse(line) else { return line }
        let started = walker.started
        _ = walker.add(envelope)
        guard walker.started > started, let commit = walker.current, commit.leavesPreviousOut,
            let previous = commit.previous, let range = envelope.previousRange
        else { return line }
        let digits = previous.hexDigits
        let count = line.count + digits.count
        scratch.reserve(count)
        let out = scratch.storage
        out.copyMemory(from: UnsafeRawBufferPointer(rebasing: line[..<range.lowerBound]))
        UnsafeMutableRawBufferPointer(rebasing: out[range.lowerBound...]).copyBytes(from: digits)
        UnsafeMutableRawBufferPointer(rebasing: out[(range.lowerBound + digits.count)...])
            .copyMemory(from: UnsafeRawBufferPointer(rebasing: line[range.lowerBound...]))
        return scratch.bytes(0..<count)
    }
}
