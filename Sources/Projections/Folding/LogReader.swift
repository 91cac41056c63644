import EventLog

/// A log and the event types met in it, for one reading thread: a fold reads runs of the log on every
/// core, each through a reader of its own (an `EventLog` is not to be shared between threads). A
/// reader is used by one thread at a time, which is what makes it safe to hand to another.
package final class LogReader: @unchecked Sendable {
    let log: EventLog
    var types = EventTypes()

    package init(_ log: EventLog) {
        self.log = log
    }

    /// Up to `count` consecutive runs of `length` events after `start`, none past `head`.
    static func runs(after start: LogPosition, through head: LogPosition, length: Int, count: Int) -> [ClosedRange<UInt64>] {
        (0..<count).compactMap { index in
            let first = start.rawValue + UInt64(index * length) + 1
            return first <= head.rawValue ? first...min(first + UInt64(length) - 1, head.rawValue) : nil
        }
    }

    /// Reads each run with a reader of its own, all at once, and returns what `body` made of each, in
    /// the runs' order.
    static func read<Part>(
        _ runs: [ClosedRange<UInt64>], with readers: [LogReader], _ body: @escaping @Sendable (ClosedRange<UInt64>, LogReader) throws -> Part
    ) throws -> [Part] {
        let results = Slots<Part>(count: runs.count)
        Parallelism.perform(runs.count, onEveryCore: runs.count > 1) { index in
            results[index] = Result { try body(runs[index], readers[index]) }
        }
        return try results.values()
    }
}
