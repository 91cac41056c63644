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

    /// Reads back from the head, over a window that grows until it holds the last commit's first line,
    /// and, when compaction left that commit's `prev` out, back to a commit that stores one.
    private func hashOfLastCommit() throws -> CommitHash {
        guard head != .none else {
            if let id = layout.readID() { return .genesis(of: id) }
            let id = LibraryID()
            try layout.writeID(id)
            return .genesis(of: id)
        }
        var span: UInt64 = 16
        while true {
            let first = head.rawValue > span ? head.rawValue - span + 1 : 1
            var walker = CommitWalker(startsACommit: first == 1)
            try read(from: LogPosition(first)) { envelope in _ = walker.add(envelope) }
            if let hash = walker.finish()?.hash { return hash }
            guard first > 1 else {
                throw EventLogError.damagedLog(
                    segment: segments.last?.name ?? "(none)", offset: 0,
                    reason: "the last commit leaves its prev out, and no commit before it names one (`episodic log verify` says where)")
            }
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
