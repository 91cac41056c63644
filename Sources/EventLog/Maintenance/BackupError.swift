/// What a backup or a restore refuses or finds wrong. Each message says what happened and what to do;
/// in every case nothing was left under the target's name.
public enum BackupError: Error, Equatable, Sendable, CustomStringConvertible {
    // Refusals of the paths given.
    /// The backup's file already exists, and replacing it was not asked for.
    case archiveExists(path: String)
    /// The archive's path names a folder or something else that is not a file.
    case archiveNotAFile(path: String)
    /// There is no archive at that path.
    case archiveMissing(path: String)
    /// The restore's target holds files, or is not a folder.
    case targetNotEmpty(path: String, reason: String)

    // Archives a restore refuses before writing anything.
    /// An entry that could write outside the library folder, or a link or a device.
    case unsafeEntry(archive: String, entry: String, reason: String)
    /// An entry no backup holds, or a backup missing what it must hold.
    case notABackup(archive: String, entry: String?, reason: String)
    /// The archive's bytes are not what was written: cut short, or a header that fails its checksum.
    case damagedArchive(archive: String, offset: UInt64, reason: String)
    /// The library the archive holds fails verification: a checksum, a gap, a blob's hash.
    case restoredLibraryDamaged(archive: String, problems: [String])

    public var description: String {
        switch self {
        case .archiveExists(let path):
            return "\(path) already exists. Choose a new file name, or replace it on purpose."
        case .archiveNotAFile(let path):
            return "\(path) is not a file. Give the path of a backup file."
        case .archiveMissing(let path):
            return "there is no backup at \(path). Check the path."
        case let .targetNotEmpty(path, reason):
            return "cannot restore into \(path): \(reason). Restore into a new path or an empty folder; nothing was written."
        case let .unsafeEntry(archive, entry, reason):
            return "\(archive) is refused: its entry \"\(entry)\" \(reason). A backup holds only "
                + "\(LibraryArchive.expectedNames); nothing was written."
        case let .notABackup(archive, entry, reason):
            let which = entry.map { "its entry \"\($0)\": " } ?? ""
            return "\(archive) is not an Episodic backup: \(which)\(reason). Nothing was written."
        case let .damagedArchive(archive, offset, reason):
            return "\(archive) is damaged at byte \(offset): \(reason). Nothing was written; use another copy of the backup."
        case let .restoredLibraryDamaged(archive, problems):
            return "the library in \(archive) does not verify (\(problems.count) problem(s)):\n"
                + problems.map { "  - \($0)" }.joined(separator: "\n")
                + "\nNothing was written; use another copy of the backup."
        }
    }
}

extension BackupError: ClassifiedError {
    public var kind: ErrorKind {
        switch self {
        case .archiveMissing: .missing
        case .archiveExists, .archiveNotAFile, .targetNotEmpty, .unsafeEntry, .notABackup: .refused
        case .damagedArchive, .restoredLibraryDamaged: .damaged
        }
    }
}
