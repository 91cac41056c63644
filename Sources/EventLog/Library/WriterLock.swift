import Foundation

/// One writer at a time per library: an exclusive `flock` on `<library>/LOCK`.
///
/// The kernel drops the lock when its holder exits or is killed, so a crash never leaves a library locked.
/// A writer writes its pid into the file, only so that a waiting writer can say who holds it. A holder
/// that only keeps derived state in step (``EventLog/withWriterLock(_:)``) opens the file read-only, since
/// `flock` needs no write access: it works on a library it cannot write. The file is never followed
/// through a symbolic link.
///
/// Writers queue: a writer waiting for the lock holds a turnstile (an open-file-description lock on
/// the file's first byte, which the kernel also drops at exit) and lets it go once it has the lock. A
/// long job that takes the lock once per part (``EventLog/write(acknowledgedThrough:_:)`` per group
/// of a script) must pass the turnstile again, so it waits behind whoever queued meanwhile instead of
/// taking the lock straight back, and concurrent writers take turns.
final class WriterLock {
    private let file: File

    private init(file: File) { self.file = file }

    deinit { flock(file.descriptor, LOCK_UN) }

    /// Waits up to `timeout` for the lock, polling: every 0.1 ms at first, then less and less often, down
    /// to once a millisecond. `recordingPid` writes the holder's pid into the file (the writer does; a
    /// read-only holder cannot).
    ///
    /// The lock stays free while its next holder sleeps: a writer that polled every 20 ms left it idle
    /// for milliseconds after each command, and four processes running single commands at once made
    /// barely more of them than one (see `episodic-bench submit`). A poll is one system call.
    static func acquire(path: String, library: String, timeout: Duration, recordingPid: Bool = true) throws(EventLogError) -> WriterLock {
        let file = try open(path, library: library, writable: recordingPid)
        let clock = ContinuousClock()
        let start = clock.now
        /// Tries `take` until it succeeds, sleeping 0.1 ms, then twice as long each time, up to
        /// ``longestPause``, between tries.
        func poll(_ what: String, _ take: () -> Bool) throws(EventLogError) {
            var pause = Duration.microseconds(100)
            while !take() {
                guard errno == EWOULDBLOCK || errno == EAGAIN || errno == EACCES || errno == EINTR else {
                    throw .system(what, path: path, errno: errno)
                }
                let waited = clock.now - start
                guard waited < timeout else {
                    let holder = (try? file.readAll()).flatMap { Int32(String(decoding: $0, as: UTF8.self).trimmingWhitespace) }
                    throw .locked(library: library, pid: holder, waitedSeconds: waited.seconds)
                }
                let nanoseconds = min(pause, timeout - waited).components.attoseconds / 1_000_000_000
                usleep(useconds_t(max(nanoseconds / 1000, 100)))
                pause = min(pause * 2, longestPause)
            }
        }
        // Only writers queue: a read-only holder cannot take a write lock on the turnstile.
        if recordingPid { try poll("queue for the lock", { turnstile(file, F_WRLCK) }) }
        defer { if recordingPid { _ = turnstile(file, F_UNLCK) } }
        try poll("lock", { flock(file.descriptor, LOCK_EX | LOCK_NB) == 0 })
        if recordingPid { try? file.write(pidRecord(getpid()), at: 0) }
        return WriterLock(file: file)
    }

    /// The longest a waiting writer sleeps between two tries for the lock.
    static let longestPause = Duration.milliseconds(1)

    /// `pid` as the file holds it: padded with spaces to the width of the largest pid and a line break,
    /// so that it overwrites any earlier holder's in place. Truncating the file first cost a journal
    /// transaction on each command (a third of a millisecond on ext4), and ext4 flushes a file truncated
    /// to zero and written again when it is closed.
    static func pidRecord(_ pid: pid_t) -> [UInt8] {
        let digits = Array(String(pid).utf8)
        return digits + Array(repeating: UInt8(ascii: " "), count: max(0, 10 - digits.count)) + [UInt8(ascii: "\n")]
    }

    /// Takes (`F_WRLCK`) or lets go (`F_UNLCK`) of the turnstile, without waiting.
    private static func turnstile(_ file: File, _ type: Int32) -> Bool {
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 1
        return fcntl(file.descriptor, Self.setOpenFileDescriptionLock, &lock) == 0
    }

    /// `F_OFD_SETLK` (Linux 3.15 and later), which Glibc declares only under `_GNU_SOURCE`: a lock owned
    /// by the open file, like `flock`'s, so that two opens in one process exclude each other as two
    /// processes do.
    private static let setOpenFileDescriptionLock: Int32 = 37

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
