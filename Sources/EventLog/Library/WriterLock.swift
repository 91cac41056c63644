import Foundation

/// One writer at a time per library: an exclusive `flock` on `<library>/LOCK`.
///
/// The kernel drops the lock when its holder exits or is killed, so a crash never leaves a library locked.
/// The holder writes its pid into the file, only so that a waiting writer can say who holds it.
final class WriterLock {
    private let file: File

    private init(file: File) { self.file = file }

    deinit { flock(file.descriptor, LOCK_UN) }

    /// Waits up to `timeout` for the lock, polling every few milliseconds.
    static func acquire(path: String, library: String, timeout: Duration) throws(EventLogError) -> WriterLock {
        let file: File
        do {
            file = try File.open(path, flags: O_RDWR | O_CREAT)
        } catch {
            if case .io(_, _, let code) = error, code == EACCES || code == EROFS || code == EPERM {
                throw .libraryNotWritable(path: library, reason: String(cString: strerror(code)))
            }
            throw error
        }
        let clock = ContinuousClock()
        let start = clock.now
        var pause = Duration.milliseconds(1)
        while flock(file.descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .io(operation: "lock", path: path, errno: errno)
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
        try? file.truncate(to: 0)
        try? file.write(Array("\(getpid())\n".utf8), at: 0)
        return WriterLock(file: file)
    }
}
