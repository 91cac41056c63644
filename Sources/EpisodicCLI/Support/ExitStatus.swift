import ArgumentParser
import Episodic

/// What an exit code tells a script, as `episodic --help` lists them.
enum ExitStatus: Int32 {
    case failure = 1
    case usage = 64
    /// A rule, a reference that matches nothing, or an input file that is not what it should be.
    case refused = 65
    /// No library at the path, or no such input file.
    case missing = 66
    /// The log, a blob or a read model is not what was written.
    case damaged = 74
    /// Another command changed the stream first, held the lock too long, or the disk is full: nothing
    /// was written; try again (after freeing space).
    case busy = 75

    /// A short name for JSON error reports.
    var kind: String {
        switch self {
        case .failure: "failure"
        case .usage: "usage"
        case .refused: "refused"
        case .missing: "missing"
        case .damaged: "damaged"
        case .busy: "busy"
        }
    }

    init(for error: any Error) {
        switch error {
        case let failure as SubmitFailure: self.init(for: failure.error)
        case is DomainError, is TranscriptError, is ScriptError, is ImageError, is UndoError, is UnusableFont: self = .refused
        case let error as ThumbnailError:
            switch error {
            case .background, .overlay, .settings, .fontUnusable, .textNotDrawn: self = .refused
            case .unknownExportExtension: self = .usage
            case .outOfMemory: self = .failure
            }
        case let error as LibraryError:
            if case .blobUnreadable = error { self = .damaged } else { self = .refused }
        case let error as InputError: self = error.isMissing ? .missing : .refused
        case is UsageError, is ValidationError: self = .usage
        case is ProjectionError, is UnreadableEvent: self = .damaged
        case let error as BackupError:
            switch error {
            case .archiveMissing: self = .missing
            case .archiveExists, .archiveNotAFile, .targetNotEmpty, .unsafeEntry, .notABackup: self = .refused
            case .damagedArchive, .restoredLibraryDamaged: self = .damaged
            }
        case let error as EventLogError:
            switch error {
            case .versionConflict, .locked, .diskFull: self = .busy
            case .libraryMissing: self = .missing
            case .damagedLog, .missingSegment, .blobMissing, .blobDamaged: self = .damaged
            case .invalidActor, .invalidEvent, .emptyCommit: self = .usage
            case .libraryPathIsAFile, .libraryNotWritable, .newerFormat, .io: self = .failure
            }
        case _ where ReadModelFailure.diskFull(error) != nil: self = .busy
        case _ where ReadModelFailure.isMalformed(error): self = .damaged
        default: self = .failure
        }
    }
}

/// A command line that parses but asks for something impossible.
struct UsageError: Error, CustomStringConvertible {
    var description: String
}

/// An input file that cannot be used.
struct InputError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var isMissing = false

    var description: String { "cannot use \(path): \(reason)" }
}
