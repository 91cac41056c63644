extension EventLog {
    /// The hash of the log's last commit as this instance last computed it, and the log's shape then:
    /// valid while the head and the last segment's size are what they were.
    struct ChainTip {
        var head: LogPosition
        var segmentCount: Int
        var lastSegmentSize: UInt64
        var hash: CommitHash
    }

    /// What the next commit's first line carries as `prev`: the hash of the log's last commit, or, for an
    /// empty log, the library's genesis hash (writing the ID file first if the library has none yet).
    func previousForNextCommit() throws -> CommitHash {
        if let tip = chainTip, tip.head == head, tip.segmentCount == segments.count,
            tip.lastSegmentSize == segments.last?.size
        {
            return tip.hash
        }
        let hash = try hashOfLastCommit()
        rememberChainTip(hash)
        return hash
    }

    func rememberChainTip(_ hash: CommitHash) {
        chainTip = ChainTip(head: head, segmentCount: segments.count, lastSegmentSize: segments.last?.size ?? 0, hash: hash)
    }

    /// The hash of the log's last commit, read back from the head (see ``chainCheck(after:)``).
    private func hashOfLastCommit() throws -> CommitHash {
        guard head != .none else {
            if let id = layout.readID() { return .genesis(of: id) }
            let id = LibraryID()
            try layout.writeID(id)
            return .genesis(of: id)
        }
        guard let hash = try chainCheck(after: head).hashOfCurrentCommit else {
            throw EventLogError.damagedLog(
                segment: segments.last?.name ?? "(none)", offset: 0,
                reason: "the last commit leaves its prev out, and no commit before it names one")
        }
        return hash
    }

    /// The hash of the commit that ends at `position` (of the part of a commit through it, when it does
    /// not end there): known without a read where this instance appended it or hashed it last; nil when
    /// the log cannot tell it.
    func commitHash(endingAt position: LogPosition) throws -> CommitHash? {
        if position == head { return try previousForNextCommit() }
        if let appended = appendedCommitEnds[position] { return appended }
        return try chainCheck(after: position).hashOfCurrentCommit
    }

    /// A chain check that has read the log through `position`, for a read of what follows: the commit
    /// `position` ends (or is inside) is hashed, so that the next commit's `prev` can be checked.
    ///
    /// Reads back over a window that grows until it begins at a commit that stores its `prev` (compaction
    /// leaves it out of every commit of a frame but the first), checking the chain within it; from
    /// position 1 when the window reaches it. Free when `position` is the head this instance last hashed.
    public func chainCheck(after position: LogPosition) throws -> ChainCheck {
        guard position != .none else { return ChainCheck(atStartOf: layout.readID()) }
        if let tip = chainTip, tip.head == position, tip.segmentCount == segments.count, tip.lastSegmentSize == segments.last?.size {
            return ChainCheck(after: tip.hash)
        }
        if let appended = appendedCommitEnds[position] { return ChainCheck(after: appended) }
        var span: UInt64 = 16
        while true {
            let first = position.rawValue > span ? position.rawValue - span + 1 : 1
            var check = first == 1 ? ChainCheck(atStartOf: layout.readID()) : ChainCheck()
            try read(from: LogPosition(first), through: position) { try check.add($0) }
            if first == 1 || check.knowsCurrentCommit { return check }
            span *= 16
        }
    }

    /// Brings a library written by an older build to this build's format before its first commit or
    /// compaction in it: the library gets an ID if it has none, then its FORMAT says this build's
    /// version, so that an older build refuses it instead of appending commits outside the chain or
    /// taking compacted frames for damage.
    func upgradeFormatIfNeeded() throws(EventLogError) {
        guard layout.storedVersion < LibraryLayout.formatVersion else { return }
        if layout.readID() == nil { try layout.writeID(LibraryID()) }
        try layout.upgradeFormat()
    }
}
