import Foundation
import Glibc
import Synchronization

/// A one-time signal from one thread to another that waits for it, where the wait is short: the waiter
/// first watches for the signal for up to ``watchLimit`` on its own CPU, and only then sleeps.
///
/// A thread that sleeps is woken by its CPU being interrupted, and on a virtual machine whose CPU went
/// idle meanwhile that takes a few tenths of a millisecond: a command that waited twice (for the read
/// models opened beside the parse, for the log's fsync run beside the projection) paid more to be
/// woken than the waits themselves.
package final class Handoff: Sendable {
    private let given = Atomic<Bool>(false)
    private let sleeper = DispatchSemaphore(value: 0)

    package init() {}

    /// Gives the signal. Once only.
    package func give() {
        given.store(true, ordering: .releasing)
        sleeper.signal()
    }

    /// Returns once the signal was given, at once when asked again: what the giver wrote before `give`
    /// is visible then.
    package func wait() {
        let start = DispatchTime.now().uptimeNanoseconds
        while !given.load(ordering: .acquiring) {
            if DispatchTime.now().uptimeNanoseconds - start > Self.watchLimit {
                sleeper.wait()
                return
            }
            // Any other thread ready to run on this CPU runs first.
            sched_yield()
        }
    }

    /// How long a waiter watches for the signal before it sleeps (nanoseconds): longer than the waits
    /// it is for, short enough that a wait that turns out long wastes little.
    static let watchLimit: UInt64 = 2_000_000
}
