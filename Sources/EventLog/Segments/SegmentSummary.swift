/// One segment as the log last found it, for reports on a library's files (`episodic info`): which
/// segments compaction may rewrite, and what they weigh.
public struct SegmentSummary: Sendable, Equatable {
    /// The file's name in `log/`, e.g. `00000001.seg`.
    public var name: String
    /// The position of its first event.
    public var firstPosition: LogPosition
    /// Its length in bytes when the log last looked.
    public var bytes: UInt64
    /// 0 as appended; each compaction that rewrote it added 1.
    public var generation: UInt32
    /// Only the last segment takes commits; every other one is sealed, and compaction rewrites only those.
    public var isSealed: Bool

    public var isCompacted: Bool { generation > 0 }
}

extension EventLog {
    /// The segments, in order, as of the last ``refresh()`` or writer section.
    public var segmentSummaries: [SegmentSummary] {
        segments.enumerated().map { index, segment in
            SegmentSummary(
                name: segment.name, firstPosition: segment.header.firstPosition, bytes: segment.size,
                generation: segment.header.generation, isSealed: index < segments.count - 1)
        }
    }

    /// The format the library's FORMAT file declares, as this instance last knew it: older than
    /// ``formatVersion`` until the first writer of this build upgrades it.
    public var storedFormatVersion: UInt32 { layout.storedVersion }
}
