import Dispatch
import EventLog
import PostgresLog
import Synchronization

extension Library {
    /// Every commit after `position`, in log order, as it lands: those already in the log first, then
    /// each new one, whether this process, another process on the same folder or (for a shared library)
    /// another machine made it. Never skips or repeats one; resume after the last position seen.
    ///
    /// ```swift
    /// for try await change in library.changes(after: library.head) {
    ///     if change.episodes.contains(shown) { reload() }
    /// }
    /// ```
    ///
    /// The sequence reads the log through a library of its own, on a thread of its own (never a
    /// cooperative one), so it can be iterated from any task. A new commit in the folder wakes it at once
    /// (inotify), a shared library's server tells it (`LISTEN`); a poll (200 ms, 5 s for a server) covers
    /// a wake-up lost. Cancelling the iterating task ends the sequence (its `next()` returns nil).
    public func changes(after position: LogPosition) -> LibraryChanges {
        LibraryChanges(path: path, after: position, lockTimeout: log.options.lockTimeout)
    }
}

/// The commits of a library's log after a position, as they land (``Library/changes(after:)``).
public struct LibraryChanges: AsyncSequence, Sendable {
    public typealias Element = LibraryChange

    let path: String
    let after: LogPosition
    let lockTimeout: Duration

    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: ChangeReader(path: path, after: after, lockTimeout: lockTimeout))
    }

    public struct Iterator: AsyncIteratorProtocol {
        let reader: ChangeReader
        /// Read with the last batch, not yet handed out.
        var waiting: [LibraryChange] = []
        var finished = false

        public mutating func next() async throws -> LibraryChange? {
            guard !finished else { return nil }
            if waiting.isEmpty {
                do {
                    waiting = try await reader.run { try $0.nextChanges() }
                } catch {
                    finished = true
                    throw error
                }
            }
            guard !waiting.isEmpty else {
                finished = true
                return nil
            }
            return waiting.removeFirst()
        }
    }
}

/// The blocking half of ``LibraryChanges``: its own library, used only on its own queue; ``cancel()``
/// alone comes from other threads.
final class ChangeReader: @unchecked Sendable {
    let queue = DispatchQueue(label: "episodic.changes")
    private let path: String
    private let lockTimeout: Duration
    /// The first position not yet handed out.
    private var next: LogPosition
    private var library: Library?
    /// Whether the sequence was cancelled, and the store whose waits a cancel ends.
    private let state = Mutex<(cancelled: Bool, store: (any LogStore)?)>((false, nil))

    init(path: String, after: LogPosition, lockTimeout: Duration) {
        self.path = path
        self.lockTimeout = lockTimeout
        self.next = after.next
    }

    /// Runs `work` on the reader's queue, and ends its wait if the calling task is cancelled.
    func run<Output: Sendable>(_ work: @escaping @Sendable (ChangeReader) throws -> Output) async throws -> Output {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async { continuation.resume(with: Result { try work(self) }) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The reader's own library, opened at its first use: only on ``queue``.
    func ownLibrary() throws -> Library {
        if let library { return library }
        let opened = try Library(at: path, lockTimeout: lockTimeout)
        library = opened
        return opened
    }

    /// The commits after the last handed out, waiting until there is one; empty once cancelled.
    func nextChanges() throws -> [LibraryChange] {
        let library = try ownLibrary()
        let store = library.store
        guard !state.withLock({ state in state.store = store; return state.cancelled }) else { return [] }
        let poll: Duration = store is SharedStore ? .seconds(5) : .milliseconds(200)
        while true {
            try library.refreshLog()
            if store.head >= next {
                let changes = try Self.commits(in: store, from: next)
                next = store.head.next
                return changes
            }
            store.waitForChange(timeout: poll)
            if state.withLock({ $0.cancelled }) { return [] }
        }
    }

    /// Hands out no change through `position`: those an answer read there already shows.
    func skip(through position: LogPosition) {
        next = max(next, position.next)
    }

    /// Ends the wait, and the sequence.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.store?.cancelWaits()
        }
    }

    /// The commits from `start` through the store's head: runs of events of one command.
    private static func commits(in store: any LogStore, from start: LogPosition) throws -> [LibraryChange] {
        var changes: [LibraryChange] = []
        let head = store.head
        try store.read(from: start, through: head) { envelope in
            let entity = AggregateKey(streamName: envelope.stream.rawValue)
            if var last = changes.last, last.commandID == envelope.commandID, last.positions.upperBound.next == envelope.position {
                last.positions = last.positions.lowerBound...envelope.position
                if let entity, !last.entities.contains(entity) { last.entities.append(entity) }
                changes[changes.count - 1] = last
            } else {
                changes.append(LibraryChange(
                    positions: envelope.position...envelope.position, commandID: envelope.commandID, undoes: envelope.undoes,
                    actor: envelope.actor, time: envelope.timestamp, entities: entity.map { [$0] } ?? [], head: head))
            }
        }
        return changes
    }
}
