extension CompactionSettings {
    /// What a writer uses on the segments it seals: LZ4-HC level 4, which on commands' JSON comes within
    /// 1 % of level 9's size at about three times its speed, in frames of 64 KiB. Reading one event
    /// through the stream index decodes its whole frame, and folding an entity reads each of its events:
    /// on the peer workload's JSON, 64 KiB frames compress 3.9 times against 4.3 for 256 KiB, for a
    /// quarter of the decoding per read.
    public static let automatic = CompactionSettings(frameContentSize: 64 << 10, level: 4)
}

extension EventLog {
    /// The smallest size at which the last segment is sealed while automatic compaction is on.
    static let smallestSealSize: UInt64 = 512 << 10

    /// The size at which the last segment is sealed and a new one started.
    ///
    /// Commits are small frames that hardly compress (about 1.1 times); compaction only rewrites sealed
    /// segments, because rewriting the one being appended to would copy all of it at every pass. So the
    /// segment being written is kept small next to the rest: with automatic compaction it is sealed at
    /// an eighth of what the sealed segments weigh on disk, but not below 512 KiB nor above
    /// ``Options/segmentSizeLimit`` (8 MiB). The part not yet compacted then never weighs more than an
    /// eighth of the compacted part, so the log stays within about 10 % of compaction's own ratio
    /// however long it grows; a young log has segments of 512 KiB, a long one segments that grow with
    /// it, one file per 8 MiB of commits at most; and compacting one segment, which the writer does
    /// under the lock, costs at most 8 MiB of LZ4-HC (a fraction of a second).
    var sealSize: UInt64 {
        let limit = min(options.segmentSizeLimit, UInt64(UInt32.max))
        guard options.automaticCompaction != nil else { return limit }
        let sealed = segments.dropLast().reduce(0) { $0 + $1.size }
        return min(limit, max(Self.smallestSealSize, sealed / 8))
    }

    /// Compacts, with ``Options/automaticCompaction``, the sealed segments no compaction rewrote yet: at
    /// the end of a writer's section, once its commits are durable, still under the lock.
    ///
    /// It never fails the section: what it did is kept, segment by segment, and what it could not do
    /// (``automaticCompactionFailure``) is left for the next writer. Segments larger than the limit,
    /// written by builds that sealed them later, are left to ``LogWriter/compact(_:)``: compacting one
    /// would keep other writers waiting too long.
    func compactSealedSegments() {
        guard let settings = options.automaticCompaction else { return }
        let limit = min(options.segmentSizeLimit, UInt64(UInt32.max))
        let waiting = segments.dropLast().filter { $0.header.generation == 0 && $0.size <= limit }
        guard !waiting.isEmpty else { return }
        do {
            _ = try compact(Array(waiting), settings)
            automaticCompactionFailure = nil
        } catch {
            automaticCompactionFailure = error
        }
        persistIndex()
    }
}
