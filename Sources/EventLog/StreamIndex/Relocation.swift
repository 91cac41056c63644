/// Where a compaction moved the events of one segment: their index entries at the new frames, which
/// replace the old ones. Positions and streams stay as they were; only frame and line offsets change.
struct Relocation {
    /// The segment's entries, in position order, without gaps.
    let entries: [IndexEntry]

    private var first: UInt64 { entries.first?.position ?? 0 }

    /// `entry`, moved if its position is one of the segment's. Throws when the index says the position
    /// belongs to another stream than the log does: an index that wrong is rebuilt, not patched.
    func apply(_ entry: IndexEntry) throws(EventLogError) -> IndexEntry {
        guard entry.position >= first, entry.position - first < UInt64(entries.count) else { return entry }
        let moved = entries[Int(entry.position - first)]
        guard moved.streamHash == entry.streamHash else {
            throw .damagedLog(
                segment: StreamIndex.tailFileName, offset: 0,
                reason: "the entry of position \(entry.position) names another stream than the log")
        }
        return moved
    }

    /// A sparse point of the sorted run, moved to the frame that now holds its position.
    func apply(
        _ point: (position: UInt64, segment: UInt32, frameOffset: UInt32)
    ) -> (position: UInt64, segment: UInt32, frameOffset: UInt32) {
        guard point.position >= first, point.position - first < UInt64(entries.count) else { return point }
        let moved = entries[Int(point.position - first)]
        return (point.position, moved.segment, moved.frameOffset)
    }
}
