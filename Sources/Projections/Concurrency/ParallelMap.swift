import Dispatch
import Foundation

/// How much work is worth other threads. A command's catch-up applies an event or a few: starting
/// threads, and asking the system how many cores there are (Foundation reads cgroup files), would cost
/// it more than the work.
enum Parallelism {
    /// Elements a worker should have at least.
    static let elementsPerWorker = 1_000

    /// The cores this process may use, asked once.
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// Workers for `count` elements: 1, without asking for the cores, when there are few.
    static func workers(for count: Int) -> Int {
        count < 2 * elementsPerWorker ? 1 : Swift.min(cores, count / elementsPerWorker)
    }

    /// Calls `body` with each of `0..<tasks`: on every core, taking tasks in order as cores come free,
    /// when `onEveryCore`, else in order on this thread. Put the longest tasks first.
    static func perform(_ tasks: Int, onEveryCore: Bool, _ body: @Sendable (Int) -> Void) {
        if onEveryCore {
            DispatchQueue.concurrentPerform(iterations: tasks, execute: body)
        } else {
            for task in 0..<tasks { body(task) }
        }
    }
}

extension Array where Element: Sendable {
    /// `map` on every core, for pure work on many elements; the results come in the elements' order.
    func parallelMap<Result: Sendable>(_ transform: @escaping @Sendable (Element) throws -> Result) rethrows -> [Result] {
        let workers = Parallelism.workers(for: count)
        guard workers > 1 else { return try map(transform) }
        let results = Slots<Result>(count: count)
        let elements = self
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: elements.count, by: workers) {
                results[index] = Swift.Result { try transform(elements[index]) }
            }
        }
        // Not `results.values()`: a `rethrows` function may rethrow only what `transform` threw.
        return try indices.map { try results[$0]!.get() }
    }
}

/// A value made on another thread from the moment it is created; ``value`` waits for it. One that
/// is dropped unread (a throw in between) waits for its work when released: none outlives its owner.
final class Ahead<Value: Sendable>: @unchecked Sendable {
    private var result: Value?
    private let done = DispatchGroup()

    /// `worthAThread` false makes the value at once, on this thread: for work too small to gain from one.
    init(worthAThread: Bool = true, _ make: @escaping @Sendable () -> Value) {
        guard worthAThread else {
            result = make()
            return
        }
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

/// One result per task, each written by exactly one thread and read only once all have finished.
final class Slots<Value>: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<Result<Value, any Error>?>

    init(count: Int) {
        buffer = .allocate(capacity: count)
        buffer.initialize(repeating: nil)
    }

    deinit {
        buffer.deinitialize()
        buffer.deallocate()
    }

    subscript(index: Int) -> Result<Value, any Error>? {
        get { buffer[index] }
        set { buffer[index] = newValue }
    }

    /// The errors of the tasks that failed, in task order.
    var failures: [any Error] {
        buffer.compactMap { result in
            guard case .failure(let error)? = result else { return nil }
            return error
        }
    }

    /// The values in order; the first task's error, in task order, if any failed.
    func values() throws -> [Value] {
        try buffer.map { try $0!.get() }
    }
}
