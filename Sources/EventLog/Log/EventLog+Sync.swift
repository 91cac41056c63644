extension EventLog {
    /// Makes what ``append(_:durably:chained:)`` wrote without syncing durable, and saves the index and
    /// the head record (which must never claim a commit that is not on disk).
    ///
    /// When the sync fails, the frames written since the last one are taken back, as a failed
    /// single commit is: none of them was acknowledged, and the kernel may have dropped any of them.
    func syncAppended() throws(EventLogError) {
        try settleSync { file throws(EventLogError) in try file.sync() }
    }

    /// ``syncAppended()`` in two halves: the fsync starts now, on a thread of its own, and
    /// ``finishSyncAppended(_:)`` waits for it and settles the log as ``syncAppended()`` would. In
    /// between the caller may read the log (to project what it appended, committing nothing) but not
    /// append to it.
    func startSyncAppended() -> BackgroundSync? {
        guard unsyncedFrom != nil, let (_, file) = appendFile else { return nil }
        return BackgroundSync(file)
    }

    /// Waits for what ``startSyncAppended()`` started; then the frames are durable, or taken back.
    func finishSyncAppended(_ started: BackgroundSync?) throws(EventLogError) {
        try settleSync { _ throws(EventLogError) in try started?.wait() }
    }

    /// Syncs the unsynced frames' segment with `sync`, then forgets them and saves the index; when the
    /// sync fails, takes them back.
    private func settleSync(_ sync: (File) throws(EventLogError) -> Void) throws(EventLogError) {
        if let unsynced = unsyncedFrom, let (_, file) = appendFile {
            do {
                try sync(file)
            } catch {
                takeBackUnsynced(unsynced)
                throw error
            }
        }
        unsyncedFrom = nil
        persistIndex()
        recordHead()
    }

    /// Cuts the last segment back to `unsynced` and reads the log's end again from the files, so that
    /// the head, the index in memory and the chain tip forget the commits cut.
    func takeBackUnsynced(_ unsynced: (segment: UInt32, offset: UInt64)) {
        unsyncedFrom = nil
        if let (number, file) = appendFile, number == unsynced.segment {
            try? file.truncate(to: unsynced.offset)
            try? file.sync()
        }
        _ = try? synchronize(repair: false, trustingIndex: false)
    }
}
