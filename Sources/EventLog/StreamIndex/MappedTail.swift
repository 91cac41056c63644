import Foundation

/// The entries of `streams.tail` that were on disk when the index was loaded, mapped into memory. Every
/// entry's check is read once at load (a pass over at most an eighth of the index, which the merge
/// threshold bounds), so that a stream read never meets a damaged one it could not notice.
final class MappedTail {
    /// The covered position the tail continues from.
    let base: UInt64
    /// Whole entries that continue `base` without a gap, as far as the last one that checks.
    let count: Int
    private let map: UnsafeRawBufferPointer

    /// Maps the tail at `path` if it continues `base`; nil when it is missing or continues something else.
    init?(path: String, continuing base: UInt64) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size >= StreamIndex.tailHeaderSize else { return nil }
        let length = Int(info.st_size)
        guard let start = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0), start != MAP_FAILED else { return nil }
        let map = UnsafeRawBufferPointer(start: start, count: length)
        guard Array(map[0..<8]) == StreamIndex.tailTag, map.littleEndian(at: 8, as: UInt64.self) == base else {
            munmap(start, length)
            return nil
        }
        self.map = map
        self.base = base
        // The tail is never fsynced: a power cut can leave a partial entry, or zeros or garbage, anywhere
        // in it, since the page cache writes its sectors back in no particular order. Only the entries
        // before the first one that fails its check or is not where it should be are used: an entry
        // damaged among good ones would otherwise be passed over, unseen, by a stream read.
        let whole = (length - StreamIndex.tailHeaderSize) / IndexEntry.size
        var count = 0
        while count < whole, let entry = IndexEntry.read(map, at: Self.offset(of: count)), entry.position == base + UInt64(count) + 1 {
            count += 1
        }
        self.count = count
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: map.baseAddress), map.count) }

    /// The entry at `index`; nil when it fails its check.
    func entry(at index: Int) -> IndexEntry? { IndexEntry.read(map, at: Self.offset(of: index)) }

    var last: IndexEntry? { count == 0 ? nil : entry(at: count - 1) }

    /// Where each stream's entries are, once many streams were read.
    private let lookup = TailLookup()

    /// The entries of one stream, by position; nil when the tail turns out to be damaged.
    func entries(for hash: UInt64) -> [IndexEntry]? {
        var found: [IndexEntry] = []
        for index in lookup.indexes(of: hash, count: count, hashAt: { map.littleEndian(at: Self.offset(of: $0), as: UInt64.self) }) {
            guard let entry = entry(at: index) else { return nil }
            found.append(entry)
        }
        return found
    }

    private static func offset(of index: Int) -> Int { StreamIndex.tailHeaderSize + index * IndexEntry.size }
}
