import CoreValues
import Foundation

/// Everything the log can refuse or find wrong. Each message says what happened and what to do next.
public enum EventLogError: Error, Equatable, Sendable, CustomStringConvertible {
    // Refusals: nothing was written.
    case versionConflict(stream: StreamID, expected: ExpectedVersion, actual: Int)
    case emptyCommit
    case invalidEvent(index: Int, reason: String)
    case invalidActor(reason: String)
    case locked(library: String, pid: Int32?, waitedSeconds: Double)

    // The library itself.
    case libraryMissing(path: String)
    case libraryPathIsAFile(path: String)
    case libraryNotWritable(path: String, reason: String)
    case newerFormat(file: String, found: UInt32, supported: UInt32)

    // Damage: the log or a blob is not what was written.
    case damagedLog(segment: String, offset: UInt64, reason: String)
    /// The log's last commit is damaged, and something (the stream index, a read model) shows it had
    /// been acknowledged: it is not a torn write, so it is never cut without being asked.
    case damagedAcknowledgedCommit(segment: String, offset: UInt64, reason: String)
    case missingSegment(name: String)
    /// The commit at `position` does not name the hash of the commit before it: a commit at or before
    /// it was edited, removed or reordered. Nothing from there on is taken in.
    case brokenChain(position: LogPosition, reason: String)
    /// Something kept outside the log (`witness`: its head record, the stream index, the read models, a
    /// shared library's server) shows that positions `lost` were acknowledged, and the log no longer
    /// holds them. Writes are refused until the library is restored or the loss is accepted.
    case lostCommits(lost: ClosedRange<LogPosition>, witness: String)
    /// Position `position` holds another commit than the one acknowledged there: its hash is `found`
    /// where `witness` recorded `recorded` (the head record a commit's, a read model an event's).
    /// Writes are refused as for ``lostCommits(lost:witness:)``.
    case alteredCommit(position: LogPosition, witness: String, found: String, recorded: String)
    case blobMissing(BlobRef)
    case blobDamaged(BlobRef, reason: String)

    // The operating system said no.
    case io(operation: String, path: String, errno: Int32)
    /// The file system has no room left (ENOSPC, or EDQUOT: the user's quota). Nothing half-written is
    /// kept; once space is freed the same command works.
    case diskFull(operation: String, path: String)

    /// The error a failed system call stands for: ``diskFull(operation:path:)`` when the file system is
    /// full, ``io(operation:path:errno:)`` otherwise.
    static func system(_ operation: String, path: String, errno code: Int32) -> EventLogError {
        code == ENOSPC || code == EDQUOT ? .diskFull(operation: operation, path: path) : .io(operation: operation, path: path, errno: code)
    }

    /// Whether the error says the log or a blob is not what was written (rather than a refusal, a
    /// missing library or the system saying no).
    public var isDamage: Bool { kind == .damaged }

    /// A write refused because `path` is a symbolic link: nothing inside a library is written through
    /// one, so that a link planted in it cannot send a write elsewhere. `library` defaults to the folder
    /// holding `path`.
    static func symbolicLink(_ path: String, library: String? = nil) -> EventLogError {
        let folder = library ?? String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        return .libraryNotWritable(
            path: folder, reason: "\(relativePath(path, to: folder)) is a symbolic link, and nothing in a library is written through one; "
                + "replace it with what it points to, or remove it")
    }

    public var description: String {
        switch self {
        case let .versionConflict(stream, expected, actual):
            let found = actual == 0 ? "no stream" : "version \(actual)"
            return "conflict on stream \(stream): expected \(expected), found \(found). "
                + "Another command changed it first; reload and try again."
        case .emptyCommit:
            return "a commit needs at least one event."
        case let .invalidEvent(index, reason):
            return "event \(index + 1) of the commit is invalid: \(reason)."
        case let .invalidActor(reason):
            return "invalid actor: \(reason)."
        case let .locked(library, pid, waited):
            let holder = pid.map { "pid \($0)" } ?? "another process"
            return "library \(library) is locked by \(holder) (waited \(String(format: "%.1f", waited)) s). "
                + "Wait for it to finish, or allow a longer lock timeout."
        case let .libraryMissing(path):
            return "no library at \(path). Create one first (EventLog.create(at:))."
        case let .libraryPathIsAFile(path):
            return "\(path) is a file, not a library folder. Choose a folder path for the library."
        case let .libraryNotWritable(path, reason):
            return "cannot write to the library at \(path): \(reason). Check its permissions, or choose another path."
        case let .newerFormat(file, found, supported):
            return "\(file) was written in log format \(found), newer than this build reads (up to \(supported)). "
                + "Upgrade Episodic to open this library; nothing was changed."
        case let .damagedLog(segment, offset, reason):
            return "the log is damaged in segment \(segment) at byte \(offset): \(reason). "
                + "Nothing was skipped; restore that segment from a backup, then run verify."
        case let .damagedAcknowledgedCommit(segment, offset, reason):
            return "the log's last commit, in segment \(segment) at byte \(offset), is damaged: \(reason). "
                + "It had been acknowledged, so the log is left as it is and writes are refused until the log is "
                + "restored from a backup, or until its loss is accepted on purpose."
        case let .brokenChain(position, reason):
            return "the log's hash chain breaks at the commit at position \(position): \(reason). A commit at or before it "
                + "was edited, removed or reordered, and nothing from there on is read. Restore the library from a backup."
        case let .lostCommits(lost, witness):
            let positions = lost.lowerBound == lost.upperBound ? "position \(lost.lowerBound)" : "positions \(lost.lowerBound) to \(lost.upperBound)"
            return "the log has lost acknowledged commits: it ends at position \(lost.lowerBound.rawValue - 1), but \(witness) "
                + "shows that \(positions) were written. Writes are refused until the library is restored from a backup, "
                + "or the loss is accepted on purpose."
        case let .alteredCommit(position, witness, found, recorded):
            return "position \(position) holds another commit than the one acknowledged there: it hashes to \(found.prefix(8))…, "
                + "where \(witness) recorded \(recorded.prefix(8))…. Writes are refused until the library is restored from a "
                + "backup, or the change is accepted on purpose."
        case let .missingSegment(name):
            return "log segment \(name) is missing. Restore it from a backup; the log cannot be read past the gap."
        case let .blobMissing(ref):
            return "blob \(ref.sha256) (\(ref.byteCount) bytes) is missing from the blob store. Restore it from a backup."
        case let .blobDamaged(ref, reason):
            return "blob \(ref.sha256) is damaged: \(reason). Restore it from a backup."
        case let .io(operation, path, code):
            return "\(operation) \(path) failed: \(String(cString: strerror(code))) (errno \(code))."
        case let .diskFull(operation, path):
            return "the disk is full: \(operation) \(path) found no space left. Nothing was half-written; "
                + "free some space and run the command again."
        }
    }
}

extension EventLogError: ClassifiedError {
    public var kind: ErrorKind {
        switch self {
        case .versionConflict, .locked, .diskFull: .busy
        case .libraryMissing: .missing
        case .damagedLog, .damagedAcknowledgedCommit, .missingSegment, .brokenChain, .lostCommits, .alteredCommit, .blobMissing,
            .blobDamaged:
            .damaged
        case .invalidActor, .invalidEvent, .emptyCommit: .usage
        case .libraryPathIsAFile, .libraryNotWritable, .newerFormat, .io: .failure
        }
    }
}
