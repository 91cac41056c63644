extension EventLog {
    /// Syncs the library's folder (FORMAT, `log/`, `blobs/`) and `log/` (every segment's entry), once per
    /// write session, before its first commit is acknowledged.
    ///
    /// A writer builds on what earlier writers left, and one of them may have been killed between
    /// creating a file and syncing its folder: the entry is then in the page cache only, visible to
    /// this writer and lost at a power cut. Syncing a folder that holds nothing unsynced costs little.
    func makeFoundationsDurable() throws(EventLogError) {
        try FileSystem.syncDirectory(path)
        try FileSystem.syncDirectory(layout.logDirectory)
        foundationsDurable = true
    }
}
