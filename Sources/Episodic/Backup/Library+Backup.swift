import EventLog
import Projections

extension Library {
    /// Writes a consistent snapshot of the library (log and blobs, up to a commit boundary) to `archive`,
    /// a tar file, while other processes may go on writing. See `EventLog.backup(to:replacing:)`.
    public func backup(to archive: String, replacing: Bool = false) throws -> BackupReport {
        try refreshLog()
        return try log.backup(to: archive, replacing: replacing)
    }

    /// Creates a library at `path` from a backup, verifies its log and blobs, and builds its read models
    /// by replaying the log, all before the library appears at `path`. `path` must not exist, or be an
    /// empty folder. See `EventLog.restore(archive:to:prepare:)`.
    @discardableResult
    public static func restore(
        archive: String, to path: String, progress: ((RebuildProgress) -> Void)? = nil
    ) throws -> RestoreReport {
        try EventLog.restore(archive: archive, to: path) { staging in
            let library = try Library(at: staging, progress: progress)
            try library.readModel().rebuild(log: library.log, progress: progress)
        }
    }
}
