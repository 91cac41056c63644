import CThreadPlacement

/// A thread of its own for one piece of work, to run beside the caller: started on another CPU than
/// the caller's (`cthread_start_elsewhere`), free to move once it runs.
///
/// Not Foundation's `Thread`: its first use in a process costs about a quarter of a millisecond before
/// the new thread runs, and every command starts threads early (the one that opens the read models
/// while the command line is parsed, the one that syncs the log while the write is projected). Nor a
/// plain `pthread_create`: Linux puts about half the new threads on their creator's CPU, where they
/// wait for the creator to sleep, and a retitle then took a tenth longer. Before the first, the program's
/// zero data is faulted in writable (`cthread_populate_zero_data`): the runtime's first writes there
/// would otherwise each interrupt the CPU the new thread runs on.
package enum DetachedThread {
    /// Runs `body` on a new thread; on this one, before returning, when no thread can be started:
    /// later, but done all the same.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(Work(body))
        let started = cthread_start_elsewhere({ context in
            Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, work.toOpaque())
        guard started == 0 else {
            work.takeRetainedValue().body()
            return
        }
    }

    private final class Work: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
