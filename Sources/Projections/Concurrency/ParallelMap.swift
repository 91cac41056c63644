import Dispatch
import Foundation

extension Array where Element: Sendable {
    /// `map` on every core, for pure work on many elements; the results come in the elements' order.
    func parallelMap<Result: Sendable>(_ transform: @escaping @Sendable (Element) throws -> Result) rethrows -> [Result] {
        let workers = Swift.max(1, Swift.min(ProcessInfo.processInfo.activeProcessorCount, count / 1000))
        guard workers > 1 else { return try map(transform) }
        let results = Slots<Result>(count: count)
        let elements = self
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: elements.count, by: workers) {
                results.buffer[index] = Swift.Result { try transform(elements[index]) }
            }
        }
        return try results.buffer.map { try $0!.get() }
    }
}

/// A value made on another thread from the moment it is created; ``value`` waits for it. One that
/// is dropped unread (a throw in between) waits for its work when released: none outlives its owner.
final class Ahead<Value: Sendable>: @unchecked Sendable {
    private var result: Value?
    private let done = DispatchGroup()

    init(_ make: @escaping @Sendable () -> Value) {
        done.enter()
        DispatchQueue.global().async { [self] in
            result = make()
            done.leave()
        }
    }

    deinit { done.wait() }

    var value: Value {
        done.wait()
        return result!
    }
}

/// One slot per element, each written by exactly one worker and read only once all have finished.
private final class Slots<Value>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Result<Value, any Error>?>

    init(count: Int) {
        buffer = .allocate(capacity: count)
        buffer.initialize(repeating: nil)
    }

    deinit {
        buffer.deinitialize()
        buffer.deallocate()
    }
}
