extension EventLog {
    /// Removes the temporary files that killed commands left behind: blobs being stored, index files
    /// being rewritten, a FORMAT file being written. Only files whose writer is gone are taken (each
    /// temporary file stays locked by its writer; see ``Folder/removeAbandoned(prefixes:)``), since a blob
    /// may be stored by a process that does not hold the writer lock. Called by the writer; a failure
    /// here fails nothing.
    func removeAbandonedFiles() {
        blobs.removeAbandonedIncoming()
        index.removeAbandonedFiles()
        _ = try? Folder.library(path).removeAbandoned(prefixes: ["FORMAT", "ID"].map(Folder.temporaryPrefix(for:)))
    }
}
