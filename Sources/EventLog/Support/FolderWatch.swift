import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Wakes a waiter when a folder's files are written, created or renamed into it (inotify), so that a
/// reader following the log learns of another process's commit as it is written, not at its next poll.
/// Changes between two waits are kept by the kernel, so none is missed; a wait also ends at its
/// timeout, and at once after ``cancel()``.
///
/// Where inotify cannot be had (the user's limit of watches reached, a file system without it), each
/// wait lasts its timeout: the caller's poll. One waiter at a time; ``cancel()`` from any thread.
final class FolderWatch: @unchecked Sendable {
    /// The inotify instance, or -1 without one.
    private let watch: Int32
    /// A pipe that ``cancel()`` writes a byte to, never read: the wait and every later one end.
    private let cancelled: (read: Int32, write: Int32)

    init(folder: String) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC); _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        }
        cancelled = (ends[0], ends[1])
        let watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE)
        if watch >= 0, inotify_add_watch(watch, folder, mask) < 0 {
            close(watch)
            self.watch = -1
        } else {
            self.watch = watch
        }
    }

    deinit {
        if watch >= 0 { close(watch) }
        for end in [cancelled.read, cancelled.write] where end >= 0 { close(end) }
    }

    /// Whether the folder can be watched; without it every wait lasts its timeout.
    var isWatching: Bool { watch >= 0 }

    /// Waits until something in the folder changed since the last wait, `timeout` passed, or the watch
    /// was cancelled; true when it changed (or may have: a cancel also says true, for the caller to look).
    @discardableResult
    func wait(timeout: Duration) -> Bool {
        var descriptors = [pollfd(fd: cancelled.read, events: Int16(POLLIN), revents: 0)]
        if watch >= 0 { descriptors.append(pollfd(fd: watch, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(clamping: timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), max(0, milliseconds)) }
        guard ready > 0 else { return false }
        if descriptors[0].revents != 0 { return true }
        // Drains what the kernel queued: one wake-up stands for every change so far.
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while buffer.withUnsafeMutableBytes({ read(watch, $0.baseAddress, $0.count) }) > 0 {}
        return true
    }

    /// Ends the current wait and makes every later one return at once.
    func cancel() {
        var one: UInt8 = 1
        _ = write(cancelled.write, &one, 1)
    }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool {
        var descriptor = pollfd(fd: cancelled.read, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }
}
