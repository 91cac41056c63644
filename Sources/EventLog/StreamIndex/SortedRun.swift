import Foundation

/// `index/streams.sorted`: every indexed event up to `covered`, sorted by stream, mapped into memory.
///
/// Layout (little-endian):
/// - header, 72 bytes: `EPSINDEX`, format (u32), segment count (u32), covered position (u64),
///   entry count (u64), sparse count (u64), the entry of the covered position (32 bytes);
/// - per segment: number (u32), generation (u32), so that a compacted segment makes the run stale;
/// - entries, 32 bytes each, sorted by (stream hash, position);
/// - the sparse position directory: every 256th position (1, 257, ...) with its segment and frame offset,
///   16 bytes each, so a reader can start a scan near any position.
final class SortedRun {
    static let tag = Array("EPSINDEX".utf8)
    static let formatVersion: UInt32 = 1
    static let headerSize = 72
    static let sparseStep: UInt64 = 256

    let covered: UInt64
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
        guard fstat(fd, &info) == 0, info.st_size >= Self.headerSize else { return nil }
        let length = Int(info.st_size)
        guard let base = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED else { return nil }
        let map = UnsafeRawBufferPointer(start: base, count: length)
        let segmentCount = Int(map.littleEndian(at: 12, as: UInt32.self))
        let entryCount = map.littleEndian(at: 24, as: UInt64.self)
        let sparseCount = map.littleEndian(at: 32, as: UInt64.self)
        let entriesOffset = Self.headerSize + segmentCount * 8
        guard Array(map[0..<8]) == Self.tag, map.littleEndian(at: 8, as: UInt32.self) == Self.formatVersion,
            entryCount < 1 << 40, sparseCount < 1 << 40,
            length == entriesOffset + Int(entryCount) * IndexEntry.size + Int(sparseCount) * 16
        else {
            munmap(base, length)
            return nil
        }
        self.map = map
        self.covered = map.littleEndian(at: 16, as: UInt64.self)
        self.entryCount = Int(entryCount)
        self.sparseCount = Int(sparseCount)
        self.entriesOffset = entriesOffset
        self.sparseOffset = entriesOffset + Int(entryCount) * IndexEntry.size
        self.lastEntry = covered == 0 ? nil : IndexEntry.read(map, at: 40)
        self.fingerprints = (0..<segmentCount).map {
            (map.littleEndian(at: Self.headerSize + $0 * 8), map.littleEndian(at: Self.headerSize + $0 * 8 + 4))
        }
        if covered > 0 && lastEntry == nil {
            munmap(base, length)
            return nil
        }
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: map.baseAddress), map.count) }

    func entry(at index: Int) -> IndexEntry? { IndexEntry.read(map, at: entriesOffset + index * IndexEntry.size) }

    /// The entries of one stream, by position; nil when one of them fails its check (the run is damaged).
    func entries(for hash: UInt64) -> [IndexEntry]? {
        var low = 0, high = entryCount
        while low < high {
            let middle = (low + high) / 2
            if map.littleEndian(at: entriesOffset + middle * IndexEntry.size, as: UInt64.self) < hash {
                low = middle + 1
            } else {
                high = middle
            }
        }
        var found: [IndexEntry] = []
        while low < entryCount, map.littleEndian(at: entriesOffset + low * IndexEntry.size, as: UInt64.self) == hash {
            guard let entry = entry(at: low) else { return nil }
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
