import Foundation
import Testing

@testable import EventLog

/// Work started on a thread of its own runs there, while the caller goes on.
@Suite("A detached thread")
struct DetachedThreadTests {
    @Test("runs its work on another thread, after start has returned to a caller that goes on")
    func runsElsewhere() {
        // Given work that waits for the caller to go on, and records the thread it ran on
        let callerWentOn = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let ranOn = ThreadRecord()

        // When it is started
        DetachedThread.start {
            ranOn.sawCallerGoOn = callerWentOn.wait(timeout: .now() + 5) == .success
            ranOn.thread = pthread_self()
            done.signal()
        }
        callerWentOn.signal()

        // Then it ran, not on the caller's thread, and while the caller went on (run here, before
        // start returned, it would have waited in vain)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(ranOn.sawCallerGoOn)
        #expect(ranOn.thread.map { pthread_equal($0, pthread_self()) == 0 } == true)
    }

    /// What the work saw: written before `done` is signalled, read after it is waited for.
    final class ThreadRecord: @unchecked Sendable {
        var thread: pthread_t?
        var sawCallerGoOn = false
    }
}
