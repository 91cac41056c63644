extension EventLog {
    /// Checks the hash chain through every segment that no writer has checked as it now is, before this
    /// writer appends: each sealed segment the catalog does not hold as it is (``SegmentCatalog``), and
    /// the last one unless the head `record` vouches for it (the file the last writer left, ending at the
    /// head). A commit edited anywhere in the log then stops writes, not only reads that pass over it.
    ///
    /// Costs a `stat` per segment when nothing changed; a changed segment costs a read of it, and a
    /// library this build has not written yet a read of the whole log, once. Sealed segments found
    /// whole go into the catalog the writer keeps (``saveSegmentCatalog()``).
    func checkChangedSegments(vouchedBy record: HeadRecord?) throws {
        guard head != .none, !segments.isEmpty else { return }
        var catalog = listedCatalog ?? SegmentCatalog()
        let now = SegmentCatalog.now()
        var endOfPrevious = layout.readID().map(CommitHash.genesis(of:))
        var previousChecked = false
        for (i, segment) in segments.enumerated() {
            let isLast = i == segments.count - 1
            let last = isLast ? head : LogPosition(segments[i + 1].header.firstPosition.rawValue - 1)
            guard segment.header.firstPosition <= last else { continue }
            if let vouched = isLast ? hashVouched(forLast: segment, by: record) : catalog.entries[segment.number]?.endHash {
                // The segment is as a writer found it; its first commit must still follow the one before.
                if previousChecked, let endOfPrevious {
                    try checkChain(from: segment.header.firstPosition, through: segment.header.firstPosition, after: endOfPrevious)
                }
                (endOfPrevious, previousChecked) = (vouched, false)
                continue
            }
            let identity = FileIdentity(path: segment.path, followingLinks: false)
            endOfPrevious = try checkChain(from: segment.header.firstPosition, through: last, after: endOfPrevious)
            previousChecked = true
            if let identity, let endOfPrevious, SegmentCatalog.admits(segment.header, isLast: isLast, identity: identity, now: now) {
                catalog.entries[segment.number] = .init(header: segment.header, identity: identity, endHash: endOfPrevious)
            }
        }
        listedCatalog = catalog
    }

    /// The hash of the last segment's last commit when the head `record` vouches for the segment: it
    /// was written when the log ended at this head, in this very file, unchanged since.
    private func hashVouched(forLast segment: Segment, by record: HeadRecord?) -> CommitHash? {
        guard let record, record.position == head, let (number, recorded) = record.segment, number == segment.number,
            FileIdentity(path: segment.path, followingLinks: false) == recorded
        else { return nil }
        return record.hash
    }

    /// Reads `first` through `last` (a commit's first line on), holding every commit to the chain from
    /// `before`, the hash of the commit before `first` (nil: not known, a log written before the chain).
    /// Returns the hash of the commit that ends at `last`.
    @discardableResult
    private func checkChain(from first: LogPosition, through last: LogPosition, after before: CommitHash?) throws -> CommitHash? {
        var check = before.map(ChainCheck.init(after:)) ?? ChainCheck(atStartOf: nil)
        try read(from: first, through: last) { try check.add($0) }
        return check.hashOfCurrentCommit
    }
}
