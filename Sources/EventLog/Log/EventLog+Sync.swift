extension EventLog {
    /// Makes what ``append(_:durably:chained:)`` wrote without syncing durable, and saves the index
    /// (whose entries must never claim a commit that is not on disk).
    ///
    /// When the sync fails, the frames written since the last one are taken back, as a failed
    /// single commit is: none of them was acknowledged, and the kernel may have dropped any of them.
    func syncAppended() throws(EventLogError) {
        if let unsynced = unsyncedFrom, let (_, file) = appendFile {
            do {
                try file.sync()
            } catch {
                takeBackUnsynced(unsynced)
                throw error
            }
        }
        unsyncedFrom = nil
        persistIndex()
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
