import Foundation
import Testing

@testable import EventLog

@Suite("Optimistic concurrency")
struct ConcurrencyConflictTests {
    @Test("each expectation admits exactly the versions it names")
    func expectationsThatHold() throws {
        let library = TemporaryLibrary()
        let log = try library.create()

        try log.write { writer in
            try writer.append(Given.commit(Given.event("a"), expecting: ["a": .noStream]))
            try writer.append(Given.commit(Given.event("a"), expecting: ["a": .exactly(1)]))
            try writer.append(Given.commit(Given.event("a"), expecting: ["a": .any]))
            #expect(try writer.version(of: "a") == 3)
        }
        #expect(try library.open().events(in: "a").map(\.streamVersion) == [1, 2, 3])
    }

    @Test(
        "a version conflict names the stream, the expected and the actual version, and writes nothing",
        arguments: [
            (ExpectedVersion.noStream, 2, "expected no stream yet, found version 2"),
            (ExpectedVersion.exactly(1), 2, "expected version 1, found version 2"),
            (ExpectedVersion.exactly(3), 2, "expected version 3, found version 2"),
        ])
    func conflicts(expected: ExpectedVersion, actual: Int, message: String) throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(2, to: "episode-7", in: log)
        let before = try library.snapshot()

        let error = #expect(throws: EventLogError.self) {
            try log.write { writer in
                try writer.append(Given.commit(Given.event("other"), Given.event("episode-7"), expecting: ["episode-7": expected]))
            }
        }

        #expect(error == .versionConflict(stream: "episode-7", expected: expected, actual: actual))
        #expect(error?.description.contains("conflict on stream episode-7: \(message)") == true)
        #expect(try library.snapshot() == before)
        #expect(try library.open().head == LogPosition(2))
        #expect(try library.open().events(in: "other").isEmpty)
    }

    @Test("a stream that does not exist conflicts with an exact version")
    func missingStream() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        #expect(throws: EventLogError.versionConflict(stream: "ghost", expected: .exactly(1), actual: 0)) {
            try log.write { try $0.append(Given.commit(Given.event("ghost"), expecting: ["ghost": .exactly(1)])) }
        }
        #expect(log.head == .none)
    }

    @Test("two instances racing on one stream: the second sees the first's commit and conflicts")
    func twoWritersOneStream() throws {
        let library = TemporaryLibrary()
        let first = try library.create()
        let second = try library.open()
        try first.write { try $0.append(Given.commit(Given.event("a"), expecting: ["a": .noStream])) }

        #expect(throws: EventLogError.versionConflict(stream: "a", expected: .noStream, actual: 1)) {
            try second.write { try $0.append(Given.commit(Given.event("a"), expecting: ["a": .noStream])) }
        }
        try second.write { try $0.append(Given.commit(Given.event("a"), expecting: ["a": .exactly(1)])) }
        #expect(try first.events(in: "a").count == 1)
        try first.refresh()
        #expect(try first.events(in: "a").count == 2)
    }
}
