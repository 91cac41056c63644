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
    public func submit(_ submissions: [Submission], actor: String, options: SubmitOptions = SubmitOptions()) async throws -> SubmitReport {
        try await write { try $0.submit(submissions, actor: actor, options: options) }
    }

    /// Every commit after `position` as it lands (``Library/changes(after:)``).
    public func changes(after position: LogPosition) -> LibraryChanges {
        LibraryChanges(path: path, after: position, lockTimeout: writer.lockTimeout)
    }

    /// A query's answers as the library changes (``Library/observe(_:)``).
    public func observe<Value: Equatable & Sendable>(_ query: @escaping @Sendable (Library) throws -> Value) -> LibraryObservation<Value> {
        LibraryObservation(path: path, lockTimeout: writer.lockTimeout, query: query)
    }
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

    func run<Value: Sendable>(_ body: @escaping @Sendable (Library) throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body(self.library) }) }
        }
    }
}
