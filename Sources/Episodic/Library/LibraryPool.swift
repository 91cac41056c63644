import Dispatch
import Synchronization

/// A library for the many tasks of an app: `Sendable`, every call `async`, and its blocking work
/// (locks, fsyncs, SQLite) on threads of its own, never on a cooperative one; as GRDB's
/// `DatabasePool`.
///
/// It holds one ``Library`` for changes, whose queue runs them one at a time (a change holds the
/// library's writer lock anyway), and ``Configuration/readers`` libraries whose queues answer
/// queries side by side. Each `Library` is only ever used on its own queue, as a `Library` must be;
/// they coordinate through the library's files, as processes do.
///
/// ```swift
/// let pool = try LibraryPool(at: folder)
/// let report = try await pool.submit([Submission(.podcast(.id(id), .rename("Night Shift")))], actor: "ana")
/// let episodes = try await pool.read { try $0.episodes(EpisodeQuery(podcast: id)) }
/// ```
public final class LibraryPool: Sendable {
    public struct Configuration: Sendable {
        /// How many libraries answer queries at once.
        public var readers: Int
        /// How long a change waits for another's writer lock.
        public var lockTimeout: Duration

        public init(readers: Int = 4, lockTimeout: Duration = .seconds(10)) {
            self.readers = max(1, readers)
            self.lockTimeout = lockTimeout
        }
    }

    public let path: String
    private let writer: ConfinedLibrary
    private let readers: [ConfinedLibrary]
    /// The reader the next query goes to: each in turn.
    private let nextReader = Atomic<Int>(0)

    /// Opens the library at `path` (it must exist: ``Library/create(at:)`` makes one).
    public init(at path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        writer = ConfinedLibrary(try Library(at: path, lockTimeout: configuration.lockTimeout), label: "episodic.writer")
        readers = try (0..<configuration.readers).map {
            ConfinedLibrary(try Library(at: path, lockTimeout: configuration.lockTimeout), label: "episodic.reader.\($0)")
        }
    }

    /// Runs `body` with a library that answers queries, beside other reads and changes.
    public func read<Value: Sendable>(_ body: @escaping @Sendable (Library) throws -> Value) async throws -> Value {
        let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue
        return try await readers[index % readers.count].run(body)
    }

    /// Runs `body` with the library that makes changes, after every change asked for before it.
    public func write<Value: Sendable>(_ body: @escaping @Sendable (Library) throws -> Value) async throws -> Value {
        try await writer.run(body)
    }

    /// Decides and commits `submissions` as ``Library/submit(_:actor:options:)`` does.
    ///
    /// Single commands that tasks submit meanwhile are committed together, each still a commit of its
    /// own, decided after the one before it, and none reported before all are durable: one fsync for
    /// the group, as `episodic submit` shares one among a script's commits (group commit).
    public func submit(_ submissions: [Submission], actor: String, options: SubmitOptions = SubmitOptions()) async throws -> SubmitReport {
        guard submissions.count == 1, !options.atomic else {
            return try await write { try $0.submit(submissions, actor: actor, options: options) }
        }
        return try await withCheckedThrowingContinuation { continuation in
            let first = waiting.commands.withLock { waiting in
                waiting.append(WaitingCommand(submission: submissions[0], actor: actor, continuation: continuation))
                return waiting.count == 1
            }
            if first { writer.submitWaiting(from: waiting) }
        }
    }

    /// Single commands waiting for the writer, in the order they came.
    private let waiting = WaitingCommands()

    /// Every commit after `position` as it lands (``Library/changes(after:)``).
    public func changes(after position: LogPosition) -> LibraryChanges {
        LibraryChanges(path: path, after: position, lockTimeout: writer.lockTimeout)
    }

    /// A query's answers as the library changes (``Library/observe(_:)``).
    public func observe<Value: Equatable & Sendable>(_ query: @escaping @Sendable (Library) throws -> Value) -> LibraryObservation<Value> {
        LibraryObservation(path: path, lockTimeout: writer.lockTimeout, query: query)
    }
}

/// The commands tasks submitted alone that wait for the writer.
final class WaitingCommands: Sendable {
    let commands = Mutex<[WaitingCommand]>([])
}

/// One command a task submitted alone, and the task waiting for its report.
struct WaitingCommand: Sendable {
    let submission: Submission
    let actor: String
    let continuation: CheckedContinuation<SubmitReport, any Error>
}

/// A library used only on its own serial queue.
final class ConfinedLibrary: @unchecked Sendable {
    private let library: Library
    private let queue: DispatchQueue
    let lockTimeout: Duration

    init(_ library: Library, label: String) {
        self.library = library
        self.lockTimeout = library.log.options.lockTimeout
        queue = DispatchQueue(label: label)
    }

    /// On the queue: takes every command waiting, and submits each actor's together, a commit each;
    /// a command the group did not reach (after a failure that stops a batch) is tried alone.
    func submitWaiting(from waiting: WaitingCommands) {
        queue.async { [self] in
            let library = self.library
            let taken = waiting.commands.withLock { waiting in
                defer { waiting = [] }
                return waiting
            }
            for actor in Set(taken.map(\.actor)) {
                let commands = taken.filter { $0.actor == actor }
                do {
                    let report = try library.submit(commands.map(\.submission), actor: actor, keepGoing: true)
                    for (index, command) in commands.enumerated() {
                        guard index < report.results.count else {
                            command.continuation.resume(with: Result { try library.submit([command.submission], actor: actor) })
                            continue
                        }
                        let result = report.results[index].mapError { failure -> SubmitFailure in
                            var own = failure
                            own.index = 0
                            return own
                        }
                        command.continuation.resume(returning: SubmitReport(results: [result], readModelError: report.readModelError))
                    }
                } catch {
                    for command in commands { command.continuation.resume(throwing: error) }
                }
            }
        }
    }

    func run<Value: Sendable>(_ body: @escaping @Sendable (Library) throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body(self.library) }) }
        }
    }
}
