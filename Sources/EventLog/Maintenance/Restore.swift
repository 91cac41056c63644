import Foundation

/// What ``EventLog/restore(archive:to:prepare:)`` made.
public struct RestoreReport: Sendable, Equatable {
    /// The new library's folder.
    public var library: String
    /// The restored log's newest event.
    public var head: LogPosition
    public var segments: Int
    public var blobs: Int
    /// The archive's length.
    public var bytes: UInt64

    /// How many events the library holds (positions have no gaps).
    public var events: UInt64 { head.rawValue }
}

extension EventLog {
    /// Creates a library at `library` from a backup (``LibraryArchive``). `library` must not exist, or be
    /// an empty folder.
    ///
    /// Every entry is checked before anything is written: only a library's file names, no absolute path,
    /// no `..`, no link or device, sizes within bounds, the archive whole. The files are then written,
    /// fsynced with their folders, into a hidden folder beside `library`; each blob's content is checked
    /// against its name, the log is verified (``verify()``: against the archive's head record too, so that
    /// a log that ends anywhere else than its backup's head is refused), and `prepare` is called with that folder's
    /// path (to build the read models) before it is renamed to `library`. Whatever fails, that folder is
    /// removed and nothing is left at `library`.
    @discardableResult
    public static func restore(
        archive: String, to library: String, prepare: (String) throws -> Void = { _ in }
    ) throws -> RestoreReport {
        let source = try RestoreSource(archive)
        let target = try RestoreTarget(library)
        let plan = try RestorePlan(source)
        if let note = plan.topLevelFiles[LibraryArchive.damagedNoteName] {
            // Backed up damaged on purpose: what it holds is evidence, not a library to go on with.
            let problems = String(decoding: note, as: UTF8.self).split(separator: "\n").map { String($0.drop { $0 == "-" || $0 == " " }) }
            throw BackupError.restoredLibraryDamaged(archive: archive, problems: ["it was backed up damaged, on purpose (`--damaged`)"] + problems)
        }
        let staging = try target.makeStagingFolder()
        do {
            try plan.write(into: staging)
            let restored = try verifiedLog(at: staging, archive: archive)
            try prepare(staging)
            try target.install(staging)
            return RestoreReport(
                library: library, head: restored.head, segments: restored.segments.count, blobs: plan.blobCount,
                bytes: source.size)
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    /// Opens the library written at `staging` and verifies it; damage is the archive's.
    private static func verifiedLog(at staging: String, archive: String) throws -> EventLog {
        do {
            let log = try EventLog(at: staging)
            let report = try log.verify()
            guard report.isClean else {
                throw BackupError.restoredLibraryDamaged(archive: archive, problems: report.problems.map(\.description))
            }
            return log
        } catch let error as EventLogError {
            let problem: String
            switch error {
            case let .damagedLog(segment, offset, reason), let .damagedAcknowledgedCommit(segment, offset, reason):
                problem = "\(segment) at byte \(offset): \(reason)"
            case .missingSegment(let name): problem = "segment \(name) is missing"
            case .blobMissing(let ref): problem = "blob \(ref.sha256) is missing"
            case let .blobDamaged(ref, reason): problem = "blob \(ref.sha256) is damaged: \(reason)"
            default: throw error
            }
            throw BackupError.restoredLibraryDamaged(archive: archive, problems: [problem])
        }
    }
}

/// The archive a restore reads.
struct RestoreSource {
    let path: String
    let file: File
    let size: UInt64

    init(_ path: String) throws {
        self.path = path
        do {
            // Non-blocking, so that a fifo is refused rather than waited on.
            file = try File.open(path, flags: O_RDONLY | O_NONBLOCK)
        } catch {
            if case .io(_, _, ENOENT) = error { throw BackupError.archiveMissing(path: path) }
            throw error
        }
        var info = stat()
        guard fstat(file.descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw BackupError.archiveNotAFile(path: path)
        }
        size = UInt64(info.st_size)
    }
}

/// Where a restore puts the library: a path that does not exist, or an empty folder.
struct RestoreTarget {
    let path: String
    let parent: String

    init(_ given: String) throws {
        var path = given
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        self.path = path
        self.parent = FileSystem.folder(of: path)
        var info = stat()
        guard lstat(path, &info) == 0 else {
            guard errno == ENOENT else { throw EventLogError.system("inspect", path: path, errno: errno) }
            return
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            let what = info.st_mode & S_IFMT == S_IFLNK ? "it is a symbolic link" : "it is a file"
            throw BackupError.targetNotEmpty(path: given, reason: what)
        }
        let contents = try FileSystem.contents(of: path)
        guard contents.isEmpty else {
            throw BackupError.targetNotEmpty(path: given, reason: "the folder holds \(contents.count) \(contents.count == 1 ? "item" : "items")")
        }
    }

    /// A new hidden folder beside the target (its parent folders created if need be).
    func makeStagingFolder() throws -> String {
        if FileSystem.isDirectory(parent) != true {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw EventLogError.libraryNotWritable(path: path, reason: "cannot create its parent folder (\(error.localizedDescription))")
            }
        }
        let name = (path as NSString).lastPathComponent
        for _ in 0..<16 {
            let staging = parent + "/." + name + ".restoring-" + String(UInt32.random(in: .min ... .max), radix: 16)
            if try FileSystem.makeDirectory(staging) { return staging }
        }
        throw EventLogError.io(operation: "create folder", path: parent + "/." + name + ".restoring-*", errno: EEXIST)
    }

    /// Renames the finished library into place (over an empty folder too) and makes that durable.
    func install(_ staging: String) throws {
        guard rename(staging, path) == 0 else {
            if errno == ENOTEMPTY || errno == EEXIST || errno == ENOTDIR {
                throw BackupError.targetNotEmpty(path: path, reason: "something was put there during the restore")
            }
            throw EventLogError.system("rename", path: staging, errno: errno)
        }
        try FileSystem.syncDirectory(parent)
    }
}
