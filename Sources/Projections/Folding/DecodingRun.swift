import Dispatch
import Foundation
import PodcastDomain

/// A run of events decoded on other threads while the reader goes on reading.
///
/// Decoding payloads is the costliest step of a fold, and it is pure: the run is decoded on every core
/// as soon as it is made, and handed back in its order when the fold, which must stay sequential, is
/// ready for it.
final class DecodingRun: @unchecked Sendable {
    /// Events decoded at once: enough to keep every core busy, few enough to bound memory.
    static let maximumLength = 16_384

    let events: [RawEvent]
    /// Written by the workers, each slot by one of them; read only once `done` is reached.
    private let results: UnsafeMutableBufferPointer<Result<DomainEvent, ProjectionError>?>
    private let done = DispatchGroup()

    /// Starts decoding `events` (at most ``maximumLength``).
    init(_ events: [RawEvent]) {
        self.events = events
        results = .allocate(capacity: events.count)
        results.initialize(repeating: nil)
        guard Parallelism.workers(for: events.count) > 1 else {
            // A command's few events: decoded here, sooner than a thread would start.
            for index in events.indices { results[index] = Result { () throws(ProjectionError) in try events[index].decode() } }
            return
        }
        done.enter()
        DispatchQueue.global().async { [self] in
            let count = self.events.count
            let workers = Parallelism.workers(for: count)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for index in stride(from: worker, to: count, by: workers) {
                    results[index] = Result { () throws(ProjectionError) in try self.events[index].decode() }
                }
            }
            done.leave()
        }
    }

    deinit {
        done.wait()
        results.deinitialize()
        results.deallocate()
    }

    /// Waits for the run, then calls `body` with each event and its index, in order.
    func forEach(_ body: (Int, DomainEvent) throws -> Void) throws {
        done.wait()
        for index in events.indices {
            try body(index, results[index]!.get())
        }
    }
}
