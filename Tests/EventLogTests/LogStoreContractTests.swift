import Foundation
import Testing

@testable import EventLog

/// What every ``LogStore`` promises the facade, checked through the protocol alone, so that another
/// home for the log (a server) can be held to the same checks. Here: the file log, opened twice on one
/// library, as two processes would.
@Suite("The log store seam")
struct LogStoreContractTests {
    /// A store to write through, and a second one on the same log, as another process would open it.
    static func stores() throws -> (TemporaryLibrary, writer: any LogStore, reader: any LogStore) {
        let library = TemporaryLibrary()
        let writer = try library.create()
        return (library, writer, try library.open())
    }

    static func append(_ events: [ProposedEvent], expecting: [StreamID: ExpectedVersion] = [:], blobs: [[UInt8]] = [],
                       to store: any LogStore) throws -> AppendResult {
        try store.withWriter(acknowledgedThrough: nil) { writer in
            try writer.append(
                Commit(events: events, expectations: expecting, commandID: CommandID(UUID()), actor: "ana", timestamp: Given.epoch),
                blobs: blobs, claims: [])
        }
    }

    static func positions(from start: UInt64, in store: any LogStore) throws -> [(UInt64, String)] {
        var seen: [(UInt64, String)] = []
        try store.read(from: LogPosition(start), through: nil) { seen.append(($0.position.rawValue, $0.stream.rawValue)) }
        return seen
    }

    @Test("commits get positions 1, 2, 3... in commit order, and another reader sees them after a refresh")
    func gaplessPositions() throws {
        let (library, store, other) = try Self.stores()
        _ = library
        let first = try Self.append([Given.event("a"), Given.event("b")], to: store)
        let second = try Self.append([Given.event("a")], expecting: ["a": .exactly(1)], to: store)

        #expect(first.positions == LogPosition(1)...LogPosition(2))
        #expect(second.positions == LogPosition(3)...LogPosition(3))
        #expect(store.head == LogPosition(3))
        #expect(other.head == LogPosition(0))
        try other.refresh()
        #expect(other.head == LogPosition(3))
        #expect(try Self.positions(from: 1, in: other).map(\.0) == [1, 2, 3])
        #expect(try Self.positions(from: 3, in: other).map(\.1) == ["a"])

        var versions: [Int] = []
        try other.read(stream: "a") { versions.append($0.streamVersion) }
        #expect(versions == [1, 2])
    }

    @Test("a commit whose expectation fails names the stream and both versions, and appends none of its events")
    func allOrNothing() throws {
        let (library, store, other) = try Self.stores()
        _ = library
        _ = try Self.append([Given.event("a"), Given.event("b")], to: store)

        let error = #expect(throws: EventLogError.self) {
            try Self.append([Given.event("c"), Given.event("b")], expecting: ["b": .noStream], to: store)
        }
        guard case .versionConflict(let stream, let expected, let actual) = error else {
            Issue.record("expected a version conflict, got \(String(describing: error))")
            return
        }
        #expect(stream == "b" && expected == .noStream && actual == 1)
        try other.refresh()
        #expect(other.head == LogPosition(2))
        var streamC = 0
        try other.read(stream: "c") { _ in streamC += 1 }
        #expect(streamC == 0)
    }

    @Test("content given with a commit can be read back by its hash once the commit is appended")
    func blobsWithTheCommit() throws {
        let (library, store, other) = try Self.stores()
        _ = library
        let content = Array("00:00:01\nAnn\nHello.\n".utf8)
        let ref = BlobStore.reference(for: content)
        _ = try Self.append([Given.event("a", blobs: [ref])], blobs: [content], to: store)

        #expect(try other.blob(ref) == content)
        let unknown = BlobStore.reference(for: Array("never stored".utf8))
        #expect(throws: EventLogError.blobMissing(unknown)) { try other.blob(unknown) }
    }

    @Test("no two writer sections of the same log run at once")
    func oneWriterAtATime() throws {
        let (library, store, _) = try Self.stores()
        let second = try library.open(EventLog.Options(lockTimeout: .milliseconds(50)))
        let refused = try store.withWriter(acknowledgedThrough: nil) { _ in
            Result { try (second as any LogStore).withWriter(acknowledgedThrough: nil) { _ in () } }
        }
        #expect(throws: EventLogError.self) { try refused.get() }
        // Once the first section ends, the second may write.
        _ = try Self.append([Given.event("a")], to: second)
        #expect(second.head == LogPosition(1))
    }
}
