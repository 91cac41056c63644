import Foundation

/// Finds a stream's events without scanning the log: the stream index.
///
/// It is derived data, never fsynced, and rebuilt from the log whenever it is missing, stale or damaged.
/// Two files in `index/`:
/// - `streams.sorted` (``SortedRun``): everything up to a covered position, sorted by stream;
/// - `streams.tail`: entries after that, in position order, appended by the writer after each commit.
///   Header (32 bytes): `EPSTAIL1`, the covered position it continues from (u64), 16 reserved bytes.
///
/// When the tail grows past a threshold, the writer merges it into a new sorted run. A reader that meets
/// a sorted run and a tail that do not continue each other (a merge in progress) ignores the tail and
/// scans the log for the difference instead: readers never wait for the writer.
final class StreamIndex {
    static let tailTag = Array("EPSTAIL1".utf8)
    static let tailHeaderSize = 32
    /// How damage to the tail is named in errors.
    static let tailFileName = "index/streams.tail"

    let directory: String
    var sortedPath: String { directory + "/" + Self.sortedName }
    var tailPath: String { directory + "/" + Self.tailName }

    private var run: SortedRun?
    /// The tail as it was on disk at load: entries after the run's covered position.
    private var mapped: MappedTail?
    /// Entries added since the load, after the mapped ones, in position order, without gaps.
    private var added: [IndexEntry] = []
    /// How many of `added` are already in the tail file.
    private var persistedCount = 0
    private var tailFileBase: UInt64?
    private var tailFile: File?
    /// The files as ``load(generations:)`` found them; nil once anything was written or forgotten since.
    private var loadedFiles: LoadedFiles?
    /// Entries appended since the writer last merged; a merge starts when this passes `mergeThreshold`.
    let mergeThreshold: Int

    init(directory: String, mergeThreshold: Int) {
        self.directory = directory
        self.mergeThreshold = mergeThreshold
    }

    /// Entries after the sorted run, on disk or not.
    private var tailCount: Int { (mapped?.count ?? 0) + added.count }

    /// The position of the newest entry: everything up to here is indexed.
    var covered: UInt64 { (run?.covered ?? 0) + UInt64(tailCount) }

    /// The newest entry, from which the log checks that the index still matches it.
    var lastEntry: IndexEntry? { added.last ?? mapped?.last ?? run?.lastEntry }

    /// The last position the index files in `directory` hold an entry for, whatever segments they were
    /// made from (compaction moves frames, not positions): what the index says was acknowledged.
    static func claimedCoverage(in directory: String) -> UInt64 {
        let run = SortedRun(path: directory + "/streams.sorted")
        let base = run?.covered ?? 0
        return base + UInt64(MappedTail(path: directory + "/streams.tail", continuing: base)?.count ?? 0)
    }

    /// Reads what is on disk: maps the sorted run in constant time, and the tail, checking each entry.
    /// A run that does not match the segments' generations is dropped. Files found as they were at the
    /// last load, with nothing added since, are kept as loaded: a writer loads again under the lock what
    /// it loaded when it opened the log, and checking a tail of thousands of entries again, or mapping
    /// the run again, cost a command a fifth of a millisecond.
    func load(generations: [UInt32: UInt32]) {
        let found = LoadedFiles(sorted: FileIdentity(path: sortedPath), tail: FileIdentity(path: tailPath))
        if found == loadedFiles, added.isEmpty, !isBroken, run.map({ Self.run($0, matches: generations) }) ?? true {
            return
        }
        reset()
        loadedFiles = found
        if let run = SortedRun(path: sortedPath), Self.run(run, matches: generations) {
            self.run = run
        }
        let base = run?.covered ?? 0
        guard let tail = MappedTail(path: tailPath, continuing: base) else { return }
        mapped = tail
        tailFileBase = base
    }

    /// Whether `run` was made from the segments as they are, none compacted since.
    private static func run(_ run: SortedRun, matches generations: [UInt32: UInt32]) -> Bool {
        run.fingerprints.allSatisfy { generations[$0.segment] == $0.generation }
    }

    /// Forgets everything, in memory; the next `persist` rewrites the files.
    func reset() {
        loadedFiles = nil
        isBroken = false
        run = nil
        mapped = nil
        added = []
        persistedCount = 0
        tailFileBase = nil
        tailFile = nil
    }

    /// Set when the files turned out not to continue the log where they claim to (an entry that is not
    /// the next position): the index answers nothing until it is rebuilt from the log.
    private(set) var isBroken = false

    /// Adds the entry of the next position. An entry that is not the next one marks the index broken,
    /// since the files it was loaded from said otherwise.
    func add(_ entry: IndexEntry) {
        guard !isBroken, entry.position == covered + 1 else {
            isBroken = true
            return
        }
        added.append(entry)
    }

    /// The entries of one stream (by hash; the caller checks the stream name), in position order.
    /// Nil when the index turns out to be damaged: the caller rebuilds it from the log.
    func entries(for hash: UInt64) -> [IndexEntry]? {
        guard !isBroken, let sorted = run.map({ $0.entries(for: hash) }) ?? [], let onDisk = mapped.map({ $0.entries(for: hash) }) ?? []
        else { return nil }
        return sorted + onDisk + added.filter { $0.streamHash == hash }
    }

    /// A frame at or before `position` to start a scan from; nil means the start of the log. A hint
    /// only: the reader checks where it leads, since the files may be wrong.
    func start(for position: UInt64) -> (segment: UInt32, frameOffset: UInt32)? {
        guard !isBroken else { return nil }
        let base = run?.covered ?? 0
        if position > base, position - base <= UInt64(tailCount) {
            let index = Int(position - base - 1)
            let mappedCount = mapped?.count ?? 0
            if index >= mappedCount {
                let entry = added[index - mappedCount]
                return (entry.segment, entry.frameOffset)
            }
            // A damaged entry: start from the run's sparse directory instead, which is only slower.
            if let entry = mapped?.entry(at: index) { return (entry.segment, entry.frameOffset) }
        }
        return run?.start(for: min(position, base))
    }

    /// Writes new entries to disk (writer only). Failure here never fails a commit: the index is rebuilt.
    func persist(generations: [UInt32: UInt32]) throws(EventLogError) {
        if isBroken { throw .damagedLog(segment: Self.tailFileName, offset: 0, reason: "the index does not continue the log") }
        // Merging when the tail reaches an eighth of the run keeps the total merge work linear in the log.
        if tailCount >= max(mergeThreshold, (run?.entryCount ?? 0) / 8) {
            try merge(generations: generations)
            return
        }
        guard persistedCount < added.count || tailFileBase == nil else { return }
        let base = run?.covered ?? 0
        if tailFileBase != base || tailFile == nil {
            if tailFileBase != base { try startTail(base: base) }
            do {
                tailFile = try folder().open(Self.tailName, flags: O_WRONLY)
            } catch {
                // Gone, or a link in its place: fold everything into new files instead.
                try merge(generations: generations)
                return
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity((added.count - persistedCount) * IndexEntry.size)
        for entry in added[persistedCount...] { entry.append(to: &out) }
        let onDisk = (mapped?.count ?? 0) + persistedCount
        loadedFiles = nil
        try tailFile!.write(out, at: UInt64(Self.tailHeaderSize + onDisk * IndexEntry.size))
        persistedCount = added.count
    }

    /// Points the entries of one compacted segment at their new frames.
    ///
    /// Entries after the sorted run are written into a new tail. If the run holds any of them, it is
    /// written again with them, through the end of the segment only: the entries after it stay in the
    /// tail, where the next compaction finds them without writing the run again. Either file is replaced
    /// by a rename, never changed in place, so that a reader keeps the index it loaded, which matches the
    /// segment files it holds open. Positions the index does not cover yet are indexed from the log as usual.
    func relocate(_ relocation: Relocation, generations: [UInt32: UInt32]) throws(EventLogError) {
        guard !isBroken, let first = relocation.entries.first?.position, let last = relocation.entries.last?.position,
            first <= covered
        else { return }
        if first <= run?.covered ?? 0 {
            try merge(generations: generations, relocating: relocation, through: min(last, covered))
            return
        }
        var entries: [IndexEntry] = []
        entries.reserveCapacity(tailCount)
        for entry in try tailEntries() { entries.append(try relocation.apply(entry)) }
        try writeTail(entries, base: run?.covered ?? 0)
    }

    /// Folds the tail into a new sorted run, through position `end` (nil: all of it); what follows stays
    /// in a new tail. `relocation` moves one compacted segment's entries on the way.
    func merge(
        generations: [UInt32: UInt32], relocating relocation: Relocation? = nil, through end: UInt64? = nil
    ) throws(EventLogError) {
        var tail = try tailEntries()
        if let relocation {
            for i in tail.indices { tail[i] = try relocation.apply(tail[i]) }
        }
        let covered = max(end ?? self.covered, run?.covered ?? 0)
        let kept = Array(tail.drop { $0.position <= covered })
        tail.removeLast(kept.count)
        let added = tail.sorted(by: IndexEntry.streamOrder)
        var merged: [IndexEntry] = []
        merged.reserveCapacity((run?.entryCount ?? 0) + added.count)
        var i = 0, j = 0
        let old = run?.entryCount ?? 0
        while i < old || j < added.count {
            if i < old {
                guard var entry = run!.entry(at: i) else {
                    throw .damagedLog(segment: "index/streams.sorted", offset: UInt64(i), reason: "index entry \(i) fails its check")
                }
                if let relocation { entry = try relocation.apply(entry) }
                if j == added.count || IndexEntry.streamOrder(entry, added[j]) {
                    merged.append(entry)
                    i += 1
                    continue
                }
            }
            merged.append(added[j])
            j += 1
        }
        var sparse = (run?.sparsePoints ?? []).map { relocation?.apply($0) ?? $0 }
        for entry in tail where (entry.position - 1) % SortedRun.sparseStep == 0 {
            sparse.append((entry.position, entry.segment, entry.frameOffset))
        }
        var last = tail.last ?? run?.lastEntry
        if let relocation, let entry = last { last = try relocation.apply(entry) }
        let segments = generations.filter { $0.key <= (last?.segment ?? 0) }.sorted { $0.key < $1.key }
            .map { ($0.key, $0.value) }
        loadedFiles = nil
        try SortedRun.write(
            entries: merged, sparse: sparse, covered: covered, lastEntry: last, segments: segments, in: folder(), name: Self.sortedName)
        run = SortedRun(path: sortedPath)
        if kept.isEmpty {
            try startTail(base: covered)
            mapped = nil
            self.added = []
            persistedCount = 0
            tailFile = nil
        } else {
            try writeTail(kept, base: covered)
        }
    }

    /// Replaces the tail file with `entries`, the entries after position `base`, and holds them in memory.
    private func writeTail(_ entries: [IndexEntry], base: UInt64) throws(EventLogError) {
        var out = Self.tailHeader(base: base)
        out.reserveCapacity(out.count + entries.count * IndexEntry.size)
        for entry in entries { entry.append(to: &out) }
        loadedFiles = nil
        try folder().replace(Self.tailName, with: out, syncingFile: false)
        tailFileBase = base
        tailFile = nil
        mapped = nil
        added = entries
        persistedCount = entries.count
    }

    /// Every entry after the sorted run, in position order.
    private func tailEntries() throws(EventLogError) -> [IndexEntry] {
        var entries: [IndexEntry] = []
        entries.reserveCapacity(tailCount)
        for index in 0..<(mapped?.count ?? 0) {
            guard let entry = mapped?.entry(at: index) else {
                throw .damagedLog(segment: Self.tailFileName, offset: UInt64(index), reason: "index entry \(index) fails its check")
            }
            entries.append(entry)
        }
        return entries + added
    }

    static let sortedName = "streams.sorted"
    static let tailName = "streams.tail"

    /// `index/`, opened once by the writer. Derived state: a link or a file in its place is removed and
    /// a real folder made, never written through.
    private func folder() throws(EventLogError) -> Folder {
        if let openFolder { return openFolder }
        let opened = try Folder.derived(directory)
        openFolder = opened
        return opened
    }

    private var openFolder: Folder?

    /// Removes the temporary files of rewrites of `index/` (this index's, the segment catalog's) that a
    /// killed writer left (writer only).
    func removeAbandonedFiles() {
        guard let folder = try? folder() else { return }
        folder.removeAbandoned(prefixes: [Self.sortedName, Self.tailName, SegmentCatalog.fileName].map(Folder.temporaryPrefix(for:)))
    }

    private static func tailHeader(base: UInt64) -> [UInt8] {
        var header = tailTag
        header.appendLittleEndian(base)
        header.append(contentsOf: repeatElement(0, count: 16))
        return header
    }

    private func startTail(base: UInt64) throws(EventLogError) {
        loadedFiles = nil
        try folder().replace(Self.tailName, with: Self.tailHeader(base: base), syncingFile: false)
        tailFileBase = base
        tailFile = nil
    }
}

/// The index files as one load found them.
private struct LoadedFiles: Equatable {
    var sorted: FileIdentity?
    var tail: FileIdentity?
}
