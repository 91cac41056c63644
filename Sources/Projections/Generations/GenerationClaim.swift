import EventLog
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A process's claim on a generation file: a shared `flock` on it, held for as long as the process may
/// open the file (SQLite opens it by path for each connection).
///
/// Old generations are removed only by a process that gets the exclusive lock without waiting
/// (``GenerationClaim/removeIfUnclaimed(_:)``), so a generation that a reader has claimed keeps its
/// file, its WAL and its shared-memory index, however many rebuilds swap in newer ones meanwhile.
/// A claim is only taken on a regular file, never through a symbolic link, and only if the path
/// still names the file that was locked (a remover may have unlinked it in between).
final class GenerationClaim {
    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Claims the generation at `path`; nil when there is no such file (any more), or something else is
    /// there (a folder). Never waits to open: a pipe in its place would block until something wrote.
    static func claim(_ path: String) throws(EventLogError) -> GenerationClaim? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .failure("open", path: path, errno: errno)
        }
        return try lockShared(fd, path: path)
    }

    /// Creates a new, empty generation file at `path` (never following or replacing anything there, with
    /// the process's umask) and claims it; nil when the name is taken.
    static func create(_ path: String) throws(EventLogError) -> GenerationClaim? {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            if errno == EEXIST { return nil }
            throw .failure("create", path: path, errno: errno)
        }
        return try lockShared(fd, path: path)
    }

    private static func lockShared(_ fd: Int32, path: String) throws(EventLogError) -> GenerationClaim? {
        while flock(fd, LOCK_SH) != 0 {
            guard errno == EINTR else {
                let code = errno
                close(fd)
                throw .failure("lock", path: path, errno: code)
            }
        }
        guard isStill(fd, at: path) else {
            close(fd)
            return nil
        }
        return GenerationClaim(path: path, descriptor: fd)
    }

    /// Removes the generation at `path` and its companions, unless some process has claimed it. Returns
    /// whether it is gone. Call it only for a generation that is not live, under the writer lock (so that
    /// it cannot become live meanwhile).
    @discardableResult
    static func removeIfUnclaimed(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            guard errno == ENOENT else { return false }
            // Companions left without their database (a crash between two unlinks).
            for companion in GenerationFile.companions { unlink(path + companion) }
            return true
        }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0, isStill(fd, at: path) else { return false }
        // The database first: from then on no one can claim it.
        guard unlink(path) == 0 else { return false }
        for companion in GenerationFile.companions { unlink(path + companion) }
        return true
    }

    /// Whether `path` names the regular file open as `fd`.
    private static func isStill(_ fd: Int32, at path: String) -> Bool {
        var opened = stat(), named = stat()
        guard fstat(fd, &opened) == 0, lstat(path, &named) == 0 else { return false }
        return (named.st_mode & S_IFMT) == S_IFREG && opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }
}

extension EventLogError {
    /// A failed system call on a read-model file: ``diskFull(operation:path:)`` for ENOSPC and EDQUOT.
    static func failure(_ operation: String, path: String, errno code: Int32) -> EventLogError {
        code == ENOSPC || code == EDQUOT ? .diskFull(operation: operation, path: path) : .io(operation: operation, path: path, errno: code)
    }
}
