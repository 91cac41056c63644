import Foundation

/// The sealed segments a writer has checked the hash chain through, each with its header, the hash of
/// its last commit, and its file's identity as `stat` gave it then: `index/segments`.
///
/// It serves two ends. A writer checks the chain of every segment that is not in it before it appends,
/// so that a commit edited anywhere in the log stops writes, not only the one after it (a check costs a
/// read of the segment; once in the catalog, a segment costs a `stat`). And opening the log reads this one small file rather than opening
/// every compacted segment for its 40-byte header (51 files, a fifth of a millisecond, on a library of
/// a million events, and more as the library grows).
///
/// Derived and never synced: only a writer adds to it, after checking a segment. An entry is used only
/// while the segment's file has the device, inode, size and times it records: a sealed segment is never
/// written in place (compacting it renames a new file over it), and a write in place would change its
/// times. A missing, damaged or stale catalog costs the reads it saves, nothing else. The segment being
/// appended to is never in it (the head record, `HEAD`, vouches for it instead).
///
/// Layout, little-endian: `EPSEGCAT`, the version (u32, 2), the number of entries (u32); per entry the
/// segment's header as in the file (40 bytes), then device, inode, size, modification and change times
/// in nanoseconds (u64 each), then the SHA-256 of its last commit (32 bytes); then FNV-1a 64 of all the
/// bytes before it.
struct SegmentCatalog: Equatable {
    struct Entry: Equatable {
        var header: SegmentHeader
        var identity: FileIdentity
        /// The hash of the segment's last commit, which the first commit of the next must name.
        var endHash: CommitHash
    }

    /// By segment number.
    var entries: [UInt32: Entry] = [:]

    static let fileName = "segments"
    static let tag = Array("EPSEGCAT".utf8)
    static let version: UInt32 = 2
    private static let headerSize = 16
    private static let entrySize = SegmentHeader.size + 40 + 32

    /// Whether a checked segment may go into the catalog: not the last one, with a header the catalog
    /// writes back as it was read (its reserved word 0), and last changed at least ``settledAfter``
    /// before `now`. The kernel stamps files from a clock that ticks every few
    /// milliseconds, so a write in place within the tick of the one recorded could leave the same
    /// times; once a tick has passed, any write gives the file new ones.
    static func admits(_ header: SegmentHeader, isLast: Bool, identity: FileIdentity, now: Int64) -> Bool {
        header.reserved == 0 && !isLast && max(identity.modified, identity.changed) < now - settledAfter
    }

    /// In nanoseconds: a quarter of a second, many ticks of the kernel's file clock at any setting.
    static let settledAfter: Int64 = 250_000_000

    /// The wall-clock time the kernel stamps files with, in nanoseconds since 1970.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The entry of segment `number`, when the file at `path` is still the one it describes.
    func entry(for number: UInt32, at path: String) -> Entry? {
        guard let entry = entries[number], FileIdentity(path: path, followingLinks: false) == entry.identity else { return nil }
        return entry
    }

    /// The catalog kept in `directory`; empty when there is none, or it cannot be read whole.
    static func load(from directory: String) -> SegmentCatalog {
        guard let file = try? File.openForReading(directory + "/" + fileName), (try? file.isRegular()) == true,
            let bytes = try? file.readAll(), let catalog = SegmentCatalog(bytes)
        else { return SegmentCatalog() }
        return catalog
    }

    /// Replaces the catalog in `directory` (the library's `index/`) with this one, or leaves it: the
    /// catalog is derived, and one that could not be written costs only reads. `setAsides` hears of
    /// what stood in its way.
    func save(in directory: String, noting setAsides: SetAsideDerivedFiles) {
        try? Folder.derived(directory, noting: setAsides).replace(Self.fileName, with: bytes, syncingFile: false)
    }

    init(entries: [UInt32: Entry] = [:]) {
        self.entries = entries
    }

    /// The catalog `bytes` hold; nil when they are not one, whole and unchanged.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= Self.headerSize + 8, Array(bytes[0..<8]) == Self.tag,
            bytes.littleEndian(at: 8, as: UInt32.self) == Self.version
        else { return nil }
        let count = Int(bytes.littleEndian(at: 12, as: UInt32.self))
        let end = Self.headerSize + count * Self.entrySize
        guard count <= (bytes.count - Self.headerSize - 8) / Self.entrySize, bytes.count == end + 8,
            bytes.withUnsafeBytes({ FNV1a.hash(UnsafeRawBufferPointer(rebasing: $0[0..<end])) }) == bytes.littleEndian(at: end, as: UInt64.self)
        else { return nil }
        for at in stride(from: Self.headerSize, to: end, by: Self.entrySize) {
            guard let header = try? SegmentHeader.parse(Array(bytes[at..<(at + SegmentHeader.size)])) else { return nil }
            let field = { (i: Int) in bytes.littleEndian(at: at + SegmentHeader.size + 8 * i, as: UInt64.self) }
            let identity = FileIdentity(
                device: field(0), inode: field(1), size: Int64(bitPattern: field(2)),
                modified: Int64(bitPattern: field(3)), changed: Int64(bitPattern: field(4)))
            let hashAt = at + SegmentHeader.size + 40
            let endHash = CommitHash(digest: bytes[hashAt..<(hashAt + 32)])
            entries[header.number] = Entry(header: header, identity: identity, endHash: endHash)
        }
    }

    /// The file's bytes, entries in segment order.
    var bytes: [UInt8] {
        var out = Self.tag
        out.appendLittleEndian(Self.version)
        out.appendLittleEndian(UInt32(entries.count))
        for (_, entry) in entries.sorted(by: { $0.key < $1.key }) {
            out.append(contentsOf: entry.header.bytes)
            let identity = entry.identity
            for field in [identity.device, identity.inode, UInt64(bitPattern: identity.size),
                UInt64(bitPattern: identity.modified), UInt64(bitPattern: identity.changed)]
            {
                out.appendLittleEndian(field)
            }
            out.append(contentsOf: entry.endHash.digest)
        }
        out.appendLittleEndian(out.withUnsafeBytes { FNV1a.hash($0) })
        return out
    }
}
