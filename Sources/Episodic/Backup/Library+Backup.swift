import EventLog
import Foundation
import Projections

extension Library {
    /// Writes a consistent snapshot of the library (log and blobs, up to a commit boundary) to `archive`,
    /// a tar file, while other processes may go on writing. A log that does not verify is refused, unless
    /// `acceptingDamage`. See `EventLog.backup(to:replacing:acceptingDamage:)`.
    ///
    /// Then notes it in the library's folder (``lastBackup``). A library this process cannot write is
    /// backed up all the same: the archive is whole, and `noteError` says why the note could not be made.
    public func backup(
        to archive: String, replacing: Bool = false, acceptingDamage: Bool = false
    ) throws -> (report: BackupReport, noteError: (any Error)?) {
        try refreshLog()
        let report = try log.backup(to: archive, replacing: replacing, acceptingDamage: acceptingDamage)
        return (report, note(report, archive: URL(fileURLWithPath: report.archive).standardizedFileURL.path))
    }

    /// Writes the same snapshot as ``backup(to:replacing:acceptingDamage:)`` to an open stream, such as
    /// standard output piped to another tool, in order; a failure midway leaves the reader an archive
    /// cut short, which a restore refuses. The library notes the backup as written to `name`.
    public func backup(
        toStream descriptor: Int32, named name: String, acceptingDamage: Bool = false
    ) throws -> (report: BackupReport, noteError: (any Error)?) {
        try refreshLog()
        let report = try log.backup(toStream: descriptor, named: name, acceptingDamage: acceptingDamage)
        return (report, note(report, archive: name))
    }

    /// Notes a finished backup in the library's folder; the error when it could not.
    private func note(_ report: BackupReport, archive: String) -> (any Error)? {
        let note = BackupNote(time: .now, archive: archive, head: report.head, bytes: report.bytes)
        do {
            try log.replaceFile(named: BackupNote.fileName, with: note.fileBytes)
            return nil
        } catch {
            return error
        }
    }

    /// The library's last backup as its folder notes it. Reads one small file; changes nothing.
    public var lastBackup: LastBackup { BackupNote.read(library: path) }

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
