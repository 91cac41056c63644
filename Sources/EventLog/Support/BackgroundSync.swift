import Foundation

/// One `fsync` run on a thread of its own, so that the writer can prepare what follows a commit (its
/// projection) while the disk makes the commit durable.
///
/// The thread makes its call through the caller's ``FileSystemLayer``: a task-local value, which a new
/// thread would not otherwise see.
final class BackgroundSync: @unchecked Sendable {
    private let done = Handoff()
    /// Written by the thread before it signals `done`, read only after `done` is waited for.
    private var outcome: Result<Void, EventLogError> = .success(())

    init(_ file: File) {
        let layer = FileSystemLayer.current
        DetachedThread.start { [self] in
            outcome = FileSystemLayer.$current.withValue(layer) {
                Result { () throws(EventLogError) in try file.sync() }
            }
            done.give()
        }
    }

    /// Waits for the sync; throws what it threw. Call it once.
    func wait() throws(EventLogError) {
        done.wait()
        try outcome.get()
    }
}
