import Foundation

/// One writer at a time per library: an exclusive `flock` on `<library>/LOCK`.
///
/// The kernel drops the lock when its holder exits or is killed, so a crash never leaves a library locked.
/// A writer writes its pid into the file, only so that a waiting writer can say who holds it. A holder
/// that only keeps derived state in step (``EventLog/withWriterLock(_:)``) opens the file read-only, since
/// `flock` needs no write access: it works on a library it cannot write. The file is never followed
/// through a symbolic link.
final class WriterLock {
    private let file: File

    private init(file: File) { self.file = file }

    deinit { flock(file.descriptor, LOCK_UN) }

    /// Waits up to `timeout` for the lock, polling every few milliseconds. `recordingPid` writes the
    /// holder's pid into the file (the writer does; a read-only holder cannot).
    static func acquire(path: String, library: String, timeout: Duration, recordingPid: Bool = true) throws(EventLogError) -> WriterLock {
        let file = try open(path, library: library, writable: recordingPid)
        let clock = ContinuousClock()
        let start = clock.now
        var pause = Duration.milliseconds(1)
        while flock(file.descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .system("lock", path: path, errno: errno)
            }
            let waited = clock.now - start
            guard waited < timeout else {
                let holder = (try? file.readAll()).flatMap { Int32(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) }
                let seconds = waited.seconds
                throw .locked(library: library, pid: holder, waitedSeconds: seconds)
            }
            let nanoseconds = min(pause, timeout - waited).components.attoseconds / 1_000_000_000
            usleep(useconds_t(max(nanoseconds / 1000, 100)))
            pause = min(pause * 2, .milliseconds(20))
        }
        if recordingPid {
            try? file.truncate(to: 0)
            try? file.write(Array("\(getpid())\n".utf8), at: 0)
        }
        return WriterLock(file: file)
    }

    /// Opens the lock file without following a link: for writing (created when missing), or, for a holder
    /// that writes nothing, read-only when the library cannot be written.
    private static func open(_ path: String, library: String, writable: Bool) throws(EventLogError) -> File {
        do {
            do {
                return try File.open(path, flags: O_RDWR | O_NOFOLLOW)
            } catch .io(_, _, ENOENT) {
                // The first writer. LOCK is made only once the library's folder is synced, so that its
                // presence tells every later writer that FORMAT, log/ and blobs/ are durable: the process
                // that made them may have been killed before its own sync.
                try FileSystem.syncDirectory(library)
                return try File.open(path, flags: O_RDWR | O_CREAT | O_NOFOLLOW)
            }
        } catch {
            // A link in place of LOCK is refused by File.open, naming it.
            guard case .io(_, _, let code) = error, code == EACCES || code == EROFS || code == EPERM else { throw error }
            if !writable, let file = try? File.open(path, flags: O_RDONLY | O_NOFOLLOW) { return file }
            throw .libraryNotWritable(path: library, reason: String(cString: strerror(code)))
        }
    }
}
