import Glibc

/// A thread of its own for one piece of work, started with `pthread_create`.
///
/// Not Foundation's `Thread`: its first use in a process costs about a quarter of a millisecond before
/// the new thread runs, and every command starts threads early (the one that opens the read models
/// while the command line is parsed, the one that syncs the log while the write is projected).
package enum DetachedThread {
    /// Runs `body` on a new thread; on this one, before returning, when no thread can be started:
    /// later, but done all the same.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(body))
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, work.toOpaque())
        guard started == 0 else {
            work.takeRetainedValue().body()
            return
        }
        pthread_detach(thread)
    }

    private final class Work: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
