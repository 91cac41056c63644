import Foundation

/// Finds a stream's events without scanning the log: the stream index.
///
/// It is derived data, never fsynced, and rebuilt from the log whenever it is missing, stale or damaged.
/// Three files in `index/`, each continuing the one before:
/// - `streams.sorted` (``SortedRun``): everything up to a covered position, sorted by stream;
/// - `streams.recent` (``SortedRun``, may be absent): the entries after that up to a later position,
///   sorted by stream, never more than an eighth of the run's;
/// - `streams.tail`: entries after that, in position order, appended by the writer after each commit.
///   Header (32 bytes): `EPSTAIL1`, the covered position it continues from (u64), 16 reserved bytes.
///
/// Every command that reads a stream searches the sorted files in logarithmic time but reads the whole
/// tail (each of its entries checked once, at load), so the tail is kept short: when it reaches the
/// merge threshold, the writer folds it into `streams.recent`, and `streams.recent` into `streams.sorted`
/// once the two would make an eighth of the run. A command's index work then grows only with the
/// logarithm of the log's length, not with the log, and the run's merges' total work no faster than
/// the log; the recent run is written again once per threshold's entries (8,192 by default), and holds
/// an eighth of the index at most (4 MB at a million events). A reader that meets files that do not
/// continue each other (a merge in progress) ignores the ones after the break and scans the log for the
/// difference instead: readers never wait for the writer.
final class StreamIndex {
    static let tailTag = Array("EPSTAIL1".utf8)
    static let tailHeaderSize = 32
    /// How damage to the tail is named in errors.
    static let tailFileName = "index/streams.tail"
    /// Whether `name`, as errors name files, is one of the index's: damage there is mended by a rebuild.
    static func isIndexFile(_ name: String) -> Bool { [sortedName, recentName, tailName].contains { "index/" + $0 == name } }

    let directory: String
    var sortedPath: String { directory + "/" + Self.sortedName }
    var recentPath: String { directory + "/" + Self.recentName }
    var tailPath: String { directory + "/" + Self.tailName }

    private var run: SortedRun?
    /// The sorted entries after the run's, if `streams.recent` continues it.
    private var recent: SortedRun?
    /// The tail as it was on disk at load: entries after the sorted files' covered position.
    private var mapped: MappedTail?
    /// Entries added since the load, after the mapped ones, in position order, without gaps.
    private var added: [IndexEntry] = []
    /// Where each stream's entries are in `added`, once many streams were read; made again whenever
    /// `added` is replaced rather than appended to.
    private var addedLookup = TailLookup()
    /// How many of `added` are already in the tail file.
    private var persistedCount = 0
    private var tailFileBase: UInt64?
    private var tailFile: File?
    /// The files as ``load(generations:)`` found them; nil once anything was written or forgotten since.
    private var loadedFiles: LoadedFiles?
    /// Entries appended since the writer last merged; a merge starts when this passes `mergeThreshold`.
    let mergeThreshold: Int
    /// Hears of what stood in the place of `index/` or one of its files, and was set aside.
    private let setAsides: SetAsideDerivedFiles

    init(directory: String, mergeThreshold: Int, noting setAsides: SetAsideDerivedFiles) {
        self.directory = directory
        self.mergeThreshold = mergeThreshold
        self.setAsides = setAsides
    }

    /// Entries after the sorted files, on disk or not.
    private var tailCount: Int { (mapped?.count ?? 0) + added.count }

    /// The position the sorted files cover, which the tail continues.
    private var sortedCovered: UInt64 { recent?.covered ?? run?.covered ?? 0 }

    /// The position of the newest entry: everything up to here is indexed.
    var covered: UInt64 { sortedCovered + UInt64(tailCount) }

    /// The newest entry, from which the log checks that the index still matches it.
    var lastEntry: IndexEntry? { added.last ?? mapped?.last ?? recent?.lastEntry ?? run?.lastEntry }

    /// The last position the index files in `directory` hold an entry for, whatever segments they were
    /// made from (compaction moves frames, not positions): what the index says was acknowledged.
    static func claimedCoverage(in directory: String) -> UInt64 {
        var base = SortedRun(path: directory + "/" + sortedName).flatMap { $0.base == 0 ? $0.covered : nil } ?? 0
        if let recent = SortedRun(path: directory + "/" + recentName), recent.base == base { base = recent.covered }
        return base + UInt64(MappedTail(path: directory + "/" + tailName, continuing: base)?.count ?? 0)
    }

    /// Reads what is on disk: maps the sorted run in constant time, and the tail, checking each entry.
    /// A run that does not match the segments' generations is dropped. Files found as they were at the
    /// last load, with nothing added since, are kept as loaded: a writer loads again under the lock what
    /// it loaded when it opened the log, and checking a tail of thousands of entries again, or mapping
    /// the run again, cost a command a fifth of a millisecond.
    func load(generations: [UInt32: UInt32]) {
        let found = LoadedFiles(
            sorted: FileIdentity(path: sortedPath), recent: FileIdentity(path: recentPath), tail: FileIdentity(path: tailPath))
        if found == loadedFiles, added.isEmpty, !isBroken,
            [run, recent].allSatisfy({ $0.map { Self.run($0, matches: generations) } ?? true })
        {
            return
        }
        reset()
        loadedFiles = found
        if let run = SortedRun(path: sortedPath), run.base == 0, Self.run(run, matches: generations) {
            self.run = run
        }
        if let recent = SortedRun(path: recentPath), recent.base == run?.covered ?? 0, Self.run(recent, matches: generations) {
            self.recent = recent
        }
        let base = sortedCovered
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
        recent = nil
        mapped = nil
        added = []
        addedLookup = TailLookup()
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
        guard !isBroken, let sorted = run.map({ $0.entries(for: hash) }) ?? [], let later = recent.map({ $0.entries(for: hash) }) ?? [],
            let onDisk = mapped.map({ $0.entries(for: hash) }) ?? []
        else { return nil }
        return sorted + later + onDisk + addedLookup.indexes(of: hash, count: added.count) { added[$0].streamHash }.map { added[$0] }
    }

    /// A frame at or before `position` to start a scan from; nil means the start of the log. A hint
    /// only: the reader checks where it leads, since the files may be wrong.
    func start(for position: UInt64) -> (segment: UInt32, frameOffset: UInt32)? {
        guard !isBroken else { return nil }
        let base = sortedCovered
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
        // The recent run's sparse points are only its own positions': before its first, the run's last serves.
        if let recent, position > recent.base, let start = recent.start(for: min(position, base)) { return start }
        return run?.start(for: min(position, run?.covered ?? 0))
    }

    /// Whether a merge should write the run rather than the recent run: once what follows the run
    /// reaches an eighth of it. Merging into the run that seldom keeps the total merge work linear in
    /// the log; the merges between write the recent run, which is smaller.
    private var runMergeDue: Bool { (recent?.entryCount ?? 0) + tailCount >= max(mergeThreshold, (run?.entryCount ?? 0) / 8) }

    /// Writes new entries to disk (writer only). Failure here never fails a commit: the index is rebuilt.
    ///
    /// `openSegmentStart` is the first position of the segment being written. A merge into the run
    /// stops before it when it can: the entries of that segment, which compaction moves once the segment
    /// is sealed, then stay in the smaller files, and moving them does not write the run again.
    func persist(generations: [UInt32: UInt32], openSegmentStart: UInt64? = nil) throws(EventLogError) {
        if isBroken { throw .damagedLog(segment: Self.tailFileName, offset: 0, reason: "the index does not continue the log") }
        if tailCount >= mergeThreshold {
            if runMergeDue {
                // Stopping before the open segment, when that still takes something into the run and leaves something.
                var end: UInt64?
                if let start = openSegmentStart, start > (run?.covered ?? 0) + 1, start <= covered { end = start - 1 }
                try merge(into: .run, generations: generations, through: end)
            } else {
                try merge(into: .recent, generations: generations)
            }
            return
        }
        guard persistedCount < added.count || tailFileBase == nil else { return }
        let base = sortedCovered
        if tailFileBase != base || tailFile == nil {
            if tailFileBase != base { try startTail(base: base) }
            do {
                tailFile = try folder().open(Self.tailName, flags: O_WRONLY)
            } catch {
                // Gone, or a link in its place: fold everything into new files instead.
                try merge(into: .run, generations: generations)
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
    /// Entries after the sorted files are written into a new tail. If a sorted file holds any of them,
    /// it is written again with them (the run with the recent run, or the recent run alone), through the
    /// end of the segment only: the entries after it stay in the tail, where the next compaction finds
    /// them without writing the sorted files again. Each file is replaced by a rename, never changed in
    /// place, so that a reader keeps the index it loaded, which matches the segment files it holds open.
    /// Positions the index does not cover yet are indexed from the log as usual.
    func relocate(_ relocation: Relocation, generations: [UInt32: UInt32]) throws(EventLogError) {
        guard !isBroken, let first = relocation.entries.first?.position, let last = relocation.entries.last?.position,
            first <= covered
        else { return }
        if first <= sortedCovered {
            let level: Level = first <= run?.covered ?? 0 || runMergeDue ? .run : .recent
            try merge(into: level, generations: generations, relocating: relocation, through: min(last, covered))
            return
        }
        var entries: [IndexEntry] = []
        entries.reserveCapacity(tailCount)
        for entry in try tailEntries() { entries.append(try relocation.apply(entry)) }
        try writeTail(entries, base: sortedCovered)
    }

    /// The sorted file a merge writes.
    enum Level {
        /// `streams.sorted`, from the run, the recent run and the tail; `streams.recent` is removed.
        case run
        /// `streams.recent`, from itself and the tail.
        case recent
    }

    /// Folds the tail, through position `end` (nil: all of it), into a new sorted file (`level`); what
    /// follows stays in a new tail. `relocation` moves one compacted segment's entries on the way. A
    /// merge into the run may stop inside the recent run: the recent run's entries after `end` then go
    /// into the new tail, and the recent run is removed all the same.
    func merge(
        into level: Level = .run, generations: [UInt32: UInt32], relocating relocation: Relocation? = nil, through end: UInt64? = nil
    ) throws(EventLogError) {
        var tail = try tailEntries()
        if let relocation {
            for i in tail.indices { tail[i] = try relocation.apply(tail[i]) }
        }
        let covered = max(end ?? self.covered, level == .run ? run?.covered ?? 0 : sortedCovered)
        var kept = Array(tail.drop { $0.position <= covered })
        tail.removeLast(kept.count)
        var later: [IndexEntry] = []
        if let recent {
            later.reserveCapacity(recent.entryCount)
            for i in 0..<recent.entryCount { later.append(try Self.entry(i, of: recent, Self.recentName, relocating: relocation)) }
        }
        var last = tail.last
        if covered < sortedCovered {
            kept = later.filter { $0.position > covered }.sorted { $0.position < $1.position } + kept
            later.removeAll { $0.position > covered }
            last = later.first { $0.position == covered }
        }
        var merged = try Self.merge(later.count, { later[$0] }, with: tail.sorted(by: IndexEntry.streamOrder))
        var sparse = (recent?.sparsePoints ?? []).filter { $0.position <= covered }.map { relocation?.apply($0) ?? $0 }
        last = last ?? recent.flatMap { $0.covered <= covered ? $0.lastEntry : nil }
        if level == .run {
            if let run {
                merged = try Self.merge(run.entryCount, { i throws(EventLogError) in
                    try Self.entry(i, of: run, Self.sortedName, relocating: relocation)
                }, with: merged)
            }
            sparse = (run?.sparsePoints ?? []).map { relocation?.apply($0) ?? $0 } + sparse
            last = last ?? run?.lastEntry
        }
        for entry in tail where (entry.position - 1) % SortedRun.sparseStep == 0 {
            sparse.append((entry.position, entry.segment, entry.frameOffset))
        }
        if let relocation, let entry = last { last = try relocation.apply(entry) }
        let segments = generations.filter { $0.key <= (last?.segment ?? 0) }.sorted { $0.key < $1.key }
            .map { ($0.key, $0.value) }
        loadedFiles = nil
        let name = level == .run ? Self.sortedName : Self.recentName
        try SortedRun.write(
            entries: merged, sparse: sparse, covered: covered, lastEntry: last, segments: segments, in: folder(), name: name)
        if level == .run {
            // Left in place, it would no longer continue the run, and be ignored; removed, it is not read.
            try folder().remove(Self.recentName)
            run = SortedRun(path: sortedPath)
            recent = nil
        } else {
            recent = SortedRun(path: recentPath)
        }
        if kept.isEmpty {
            try startTail(base: covered)
            mapped = nil
            self.added = []
            addedLookup = TailLookup()
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
        addedLookup = TailLookup()
        persistedCount = entries.count
    }

    /// Entry `index` of `run` (whose file is `name`, for errors), moved by `relocation`.
    private static func entry(
        _ index: Int, of run: SortedRun, _ name: String, relocating relocation: Relocation?
    ) throws(EventLogError) -> IndexEntry {
        guard let entry = run.entry(at: index) else {
            throw .damagedLog(segment: "index/" + name, offset: UInt64(index), reason: "index entry \(index) fails its check")
        }
        return try relocation?.apply(entry) ?? entry
    }

    /// The `count` entries `first` gives, in stream order, merged with `added`, in stream order too.
    private static func merge(
        _ count: Int, _ first: (Int) throws(EventLogError) -> IndexEntry, with added: [IndexEntry]
    ) throws(EventLogError) -> [IndexEntry] {
        var merged: [IndexEntry] = []
        merged.reserveCapacity(count + added.count)
        var j = 0
        for i in 0..<count {
            let entry = try first(i)
            while j < added.count, IndexEntry.streamOrder(added[j], entry) {
                merged.append(added[j])
                j += 1
            }
            merged.append(entry)
        }
        merged.append(contentsOf: added[j...])
        return merged
    }

    /// Every entry after the sorted files, in position order.
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
    static let recentName = "streams.recent"
    static let tailName = "streams.tail"

    /// `index/`, opened once by the writer. Derived state: a link or a file in its place is set aside and
    /// a real folder made, never written through.
    private func folder() throws(EventLogError) -> Folder {
        if let openFolder { return openFolder }
        let opened = try Folder.derived(directory, noting: setAsides)
        openFolder = opened
        return opened
    }

    private var openFolder: Folder?

    /// Removes the temporary files of rewrites of `index/` (this index's, the segment catalog's) that a
    /// killed writer left (writer only).
    func removeAbandonedFiles() {
        guard let folder = try? folder() else { return }
        folder.removeAbandoned(
            prefixes: [Self.sortedName, Self.recentName, Self.tailName, SegmentCatalog.fileName].map(Folder.temporaryPrefix(for:)))
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
    var recent: FileIdentity?
    var tail: FileIdentity?
}
