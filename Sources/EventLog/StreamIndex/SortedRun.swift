import Foundation

/// A sorted run of the stream index, mapped into memory: the indexed events after `base` through
/// `covered`, sorted by stream. `index/streams.sorted` is the run from the first position (`base` 0);
/// `index/streams.recent` the smaller one that continues it (see ``StreamIndex``).
///
/// Layout (little-endian):
/// - header, 72 bytes: `EPSINDEX`, format (u32), segment count (u32), covered position (u64),
///   entry count (u64), sparse count (u64), the entry of the covered position (32 bytes);
/// - per segment: number (u32), generation (u32), so that a compacted segment makes the run stale;
/// - entries, 32 bytes each, sorted by (stream hash, position): one per position after `base`, which
///   is `covered - entry count`;
/// - the sparse position directory: each of the run's positions 1, 257, 513, ... with its segment and
///   frame offset, 16 bytes each, so a reader can start a scan near any position.
final class SortedRun {
    static let tag = Array("EPSINDEX".utf8)
    static let formatVersion: UInt32 = 1
    static let headerSize = 72
    static let sparseStep: UInt64 = 256

    let covered: UInt64
    /// The position before the run's first: every position `base + 1 ... covered` is in it once.
    var base: UInt64 { covered - UInt64(entryCount) }
    let entryCount: Int
    let sparseCount: Int
    let lastEntry: IndexEntry?
    let fingerprints: [(segment: UInt32, generation: UInt32)]
    private let map: UnsafeRawBufferPointer
    private let entriesOffset: Int
    private let sparseOffset: Int

    /// Maps `path`; nil when it is missing or not a whole, valid run.
    init?(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size >= Self.headerSize, info.st_size < Int.max / 2 else { return nil }
        let length = Int(info.st_size)
        guard let base = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED else { return nil }
        let map = UnsafeRawBufferPointer(start: base, count: length)
        guard let layout = Self.validLayout(map) else {
            munmap(base, length)
            return nil
        }
        self.map = map
        self.covered = layout.covered
        self.entryCount = layout.entryCount
        self.sparseCount = layout.sparseCount
        self.entriesOffset = layout.entriesOffset
        self.sparseOffset = layout.entriesOffset + layout.entryCount * IndexEntry.size
        self.lastEntry = layout.lastEntry
        self.fingerprints = layout.fingerprints
    }

    /// The run's fields when every one of them agrees with the others and with the file's size: every
    /// position base+1...covered is in the run once, the header's entry is the covered one, there is one
    /// sparse point per 256 positions and a fingerprint per segment 1...(the covered entry's). Nil
    /// otherwise: such a run is not used.
    private static func validLayout(_ map: UnsafeRawBufferPointer) -> (
        covered: UInt64, entryCount: Int, sparseCount: Int, entriesOffset: Int, lastEntry: IndexEntry?,
        fingerprints: [(segment: UInt32, generation: UInt32)]
    )? {
        guard Array(map[0..<8]) == tag, map.littleEndian(at: 8, as: UInt32.self) == formatVersion else { return nil }
        let segmentCount = Int(map.littleEndian(at: 12, as: UInt32.self))
        let covered = map.littleEndian(at: 16, as: UInt64.self)
        let entryCount = map.littleEndian(at: 24, as: UInt64.self)
        let sparseCount = map.littleEndian(at: 32, as: UInt64.self)
        let entriesOffset = headerSize + segmentCount * 8
        guard entryCount < 1 << 40, sparseCount < 1 << 40,
            map.count == entriesOffset + Int(entryCount) * IndexEntry.size + Int(sparseCount) * 16,
            entryCount <= covered, entryCount > 0 || covered == 0, sparseCount == sparsePoints(after: covered - entryCount, through: covered)
        else { return nil }
        let lastEntry = covered == 0 ? nil : IndexEntry.read(map, at: 40)
        if covered == 0 {
            guard segmentCount == 0 else { return nil }
        } else {
            guard let lastEntry, lastEntry.position == covered, UInt64(segmentCount) == UInt64(lastEntry.segment) else { return nil }
        }
        var fingerprints: [(segment: UInt32, generation: UInt32)] = []
        fingerprints.reserveCapacity(segmentCount)
        for i in 0..<segmentCount {
            let segment: UInt32 = map.littleEndian(at: headerSize + i * 8)
            guard UInt64(segment) == UInt64(i) + 1 else { return nil }
            fingerprints.append((segment, map.littleEndian(at: headerSize + i * 8 + 4)))
        }
        return (covered, Int(entryCount), Int(sparseCount), entriesOffset, lastEntry, fingerprints)
    }

    /// How many of the positions `base + 1 ... covered` are sparse points (1, 257, 513, ...).
    static func sparsePoints(after base: UInt64, through covered: UInt64) -> UInt64 {
        // Each count of sparse points up to a position rounds up, without overflow for any header's value.
        func upTo(_ position: UInt64) -> UInt64 { position / sparseStep + (position % sparseStep == 0 ? 0 : 1) }
        return upTo(covered) - upTo(base)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: map.baseAddress), map.count) }

    func entry(at index: Int) -> IndexEntry? { IndexEntry.read(map, at: entriesOffset + index * IndexEntry.size) }

    /// The entries of one stream, by position; nil when the run turns out to be damaged.
    ///
    /// The binary search reads only hashes, so every entry it steps on, the ones it returns and the two
    /// around them must pass their check and be in order: damage anywhere on the way is noticed rather
    /// than answered with fewer entries.
    func entries(for hash: UInt64) -> [IndexEntry]? {
        var low = 0, high = entryCount
        while low < high {
            let middle = (low + high) / 2
            guard let probe = entry(at: middle) else { return nil }
            if probe.streamHash < hash {
                low = middle + 1
            } else {
                high = middle
            }
        }
        if low > 0 {
            guard let before = entry(at: low - 1), before.streamHash < hash else { return nil }
        }
        var found: [IndexEntry] = []
        while low < entryCount {
            guard let entry = entry(at: low) else { return nil }
            guard entry.streamHash == hash else {
                guard entry.streamHash > hash else { return nil }
                break
            }
            if let last = found.last, last.position >= entry.position { return nil }
            found.append(entry)
            low += 1
        }
        return found
    }

    /// The last sparse point at or before `position`: a frame to start scanning from.
    func start(for position: UInt64) -> (segment: UInt32, frameOffset: UInt32)? {
        var low = 0, high = sparseCount
        while low < high {
            let middle = (low + high) / 2
            if map.littleEndian(at: sparseOffset + middle * 16, as: UInt64.self) <= position {
                low = middle + 1
            } else {
                high = middle
            }
        }
        guard low > 0 else { return nil }
        let at = sparseOffset + (low - 1) * 16
        return (map.littleEndian(at: at + 8), map.littleEndian(at: at + 12))
    }

    /// Every sparse point, in order.
    var sparsePoints: [(position: UInt64, segment: UInt32, frameOffset: UInt32)] {
        (0..<sparseCount).map { i in
            let at = sparseOffset + i * 16
            return (map.littleEndian(at: at), map.littleEndian(at: at + 8), map.littleEndian(at: at + 12))
        }
    }

    /// Writes a run of `entries` (already in stream order) to the file `name` in `folder`, atomically by
    /// rename. Synced before the rename, so that a power cut leaves the old run or the new, never a torn
    /// one whose damaged entries a stream read could pass over unseen (one sync per merge).
    static func write(
        entries: [IndexEntry], sparse: [(position: UInt64, segment: UInt32, frameOffset: UInt32)],
        covered: UInt64, lastEntry: IndexEntry?, segments: [(UInt32, UInt32)], in folder: Folder, name: String
    ) throws(EventLogError) {
        var out: [UInt8] = []
        out.reserveCapacity(headerSize + segments.count * 8 + entries.count * IndexEntry.size + sparse.count * 16)
        out.append(contentsOf: tag)
        out.appendLittleEndian(formatVersion)
        out.appendLittleEndian(UInt32(segments.count))
        out.appendLittleEndian(covered)
        out.appendLittleEndian(UInt64(entries.count))
        out.appendLittleEndian(UInt64(sparse.count))
        if let lastEntry {
            lastEntry.append(to: &out)
        } else {
            out.append(contentsOf: repeatElement(0, count: IndexEntry.size))
        }
        for (segment, generation) in segments {
            out.appendLittleEndian(segment)
            out.appendLittleEndian(generation)
        }
        for entry in entries { entry.append(to: &out) }
        for point in sparse {
            out.appendLittleEndian(point.position)
            out.appendLittleEndian(point.segment)
            out.appendLittleEndian(point.frameOffset)
        }
        try folder.replace(name, with: out, syncingFile: true)
    }
}
