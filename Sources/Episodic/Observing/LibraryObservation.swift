import EventLog

extension Library {
    /// The answer of `query` now, then again each time a commit changes it: as GRDB's
    /// `ValueObservation`, on top of the read models. `query` runs on a library of the observation's
    /// own, on its thread, after each commit (``changes(after:)``); a value equal to the last one is not
    /// yielded again.
    ///
    /// ```swift
    /// for try await episodes in library.observe({ try $0.episodes(EpisodeQuery(podcast: id)) }) {
    ///     show(episodes.value)
    /// }
    /// ```
    public func observe<Value: Equatable & Sendable>(
        _ query: @escaping @Sendable (Library) throws -> Value
    ) -> LibraryObservation<Value> {
        LibraryObservation(path: path, lockTimeout: log.options.lockTimeout, query: query)
    }
}

/// An answer as it stood at a position of the log.
public struct Observed<Value: Sendable>: Sendable {
    public var value: Value
    /// Every read model the answer came from had read the log through here: the value is never older
    /// than this position (it may be newer, when a commit landed while it was read).
    public var position: LogPosition
}

/// A query's answers as the library changes (``Library/observe(_:)``).
public struct LibraryObservation<Value: Equatable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Observed<Value>

    let path: String
    let lockTimeout: Duration
    let query: @Sendable (Library) throws -> Value

    public func makeAsyncIterator() -> Iterator {
        Iterator(reader: ChangeReader(path: path, after: .none, lockTimeout: lockTimeout), query: query)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let reader: ChangeReader
        let query: @Sendable (Library) throws -> Value
        var last: Value?
        var finished = false

        public mutating func next() async throws -> Observed<Value>? {
            guard !finished else { return nil }
            let (query, last) = (self.query, self.last)
            do {
                let answer = try await reader.run { reader -> Observed<Value>? in
                    let library = try reader.ownLibrary()
                    if last == nil {
                        // The first answer; changes are followed from the head it was read at.
                        let answer = try Self.answer(query, library)
                        reader.skip(through: answer.position)
                        return answer
                    }
                    while true {
                        guard !(try reader.nextChanges()).isEmpty else { return nil }
                        let answer = try Self.answer(query, library)
                        if answer.value != last { return answer }
                    }
                }
                guard let answer else {
                    finished = true
                    return nil
                }
                self.last = answer.value
                return answer
            } catch {
                finished = true
                throw error
            }
        }

        /// The query's answer, with the position every read model had reached before it was read.
        private static func answer(_ query: (Library) throws -> Value, _ library: Library) throws -> Observed<Value> {
            let model = try library.currentReadModel()
            let position = try model.status(head: library.log.head).map(\.checkpoint).min() ?? .none
            return Observed(value: try query(library), position: position)
        }
    }
}
