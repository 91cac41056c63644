import Foundation
import Testing

@testable import EventLog

@Suite("Appending and reading")
struct AppendAndReadTests {
    let podcast: StreamID = "podcast-1"
    let episode: StreamID = "episode-1"

    @Test("a commit comes back exactly as it was appended, envelope and payload")
    func roundTrip() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        let blob = try log.blobs.put(Array("transcript".utf8))
        let undone = CommandID(UUID())
        let commit = Given.commit(
            Given.event(podcast, "PodcastCreated", #"{"name":"Café \"Talk\"","tags":["a",1,true,null]}"#),
            Given.event(episode, "TranscriptImported", #"{"ref":1}"#, blobs: [blob]),
            actor: "Zoë \"the\" editor \\ ed.", at: Timestamp(rawValue: 1_790_000_000_123)!, undoes: undone)

        let result = try log.write { try $0.append(commit) }

        #expect(result.positions == LogPosition(1)...LogPosition(2))
        #expect(result.streamVersions == [podcast: 1, episode: 1])
        let reopened = try library.open()
        let events = try reopened.events()
        #expect(events.count == 2)
        #expect(events[0].position == LogPosition(1))
        #expect(events[0].stream == podcast)
        #expect(events[0].streamVersion == 1)
        #expect(events[0].type == "PodcastCreated")
        #expect(events[0].schemaVersion == 1)
        #expect(events[0].actor == "Zoë \"the\" editor \\ ed.")
        #expect(events[0].commandID == commit.commandID)
        #expect(events[0].undoes == undone)
        #expect(events[0].timestamp.text == "2026-09-21T14:13:20.123Z")
        #expect(events[0].json == #"{"name":"Café \"Talk\"","tags":["a",1,true,null]}"#)
        #expect(events[0].blobs.isEmpty)
        #expect(events[1].blobs == [blob])
        #expect(events[1].commandID == commit.commandID)
    }

    @Test("positions start at 1 and have no gaps across commits, streams and reopenings")
    func positionsAreDense() throws {
        let library = TemporaryLibrary()
        var log = try library.create()
        var all: [LogPosition] = []
        for round in 0..<3 {
            let results = try log.write { writer in
                try (0..<5).map { i in
                    try writer.append(Given.commit(Given.event(StreamID(rawValue: "s-\(i % 2)")!), Given.event("other")))
                }
            }
            all += results.flatMap { Array(($0.positions.lowerBound.rawValue)...($0.positions.upperBound.rawValue)) }.map { LogPosition($0) }
            log = try library.open()
            #expect(log.head == LogPosition(UInt64(10 * (round + 1))))
        }
        #expect(all == (1...30).map { LogPosition($0) })
        #expect(try log.events().map(\.position) == all)
    }

    @Test("reading from a position starts there and stops at the head or at `through`")
    func readRanges() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(600, to: "counter", in: log)

        #expect(try log.events(from: LogPosition(598)).map(\.json) == [#"{"i":598}"#, #"{"i":599}"#, #"{"i":600}"#])
        #expect(try log.events(from: LogPosition(300), through: LogPosition(301)).map(\.position.rawValue) == [300, 301])
        #expect(try log.events(from: LogPosition(601)).isEmpty)
    }

    @Test("a read with a filter hands over the wanted events only, whole, and asks once for each position")
    func filteredRead() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(600, to: "counter", in: log)

        var asked: [UInt64] = []
        var handed: [RecordedEvent] = []
        try log.read(from: LogPosition(10), through: LogPosition(500), where: { asked.append($0.rawValue); return $0.rawValue % 7 == 0 }) {
            handed.append(RecordedEvent($0))
        }
        #expect(asked == Array(10...500))
        #expect(handed == (try log.events(from: LogPosition(10), through: LogPosition(500)).filter { $0.position.rawValue % 7 == 0 }))
        #expect(handed.first?.json == #"{"i":14}"#)
    }

    @Test("a read of heads gives each event's position, stream and type, as a full read does")
    func headsRead() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try log.write { writer in
            for i in 1...40 {
                try writer.append(Given.commit(
                    Given.event(StreamID(rawValue: "episode-\(i % 3)")!, i % 2 == 0 ? "Retitled" : "Described", #"{"i":\#(i)}"#)))
            }
        }
        var heads: [String] = []
        try log.readHeads(from: LogPosition(5), through: LogPosition(30)) { head in
            heads.append("\(head.position.rawValue) \(String(decoding: head.streamBytes, as: UTF8.self)) \(String(decoding: head.typeBytes, as: UTF8.self))")
        }
        let full = try log.events(from: LogPosition(5), through: LogPosition(30)).map { "\($0.position.rawValue) \($0.stream) \($0.type)" }
        #expect(heads == full)
        #expect(heads.first == "5 episode-2 Described")
    }

    @Test("a line laid out otherwise than the writer lays it out is parsed whole for its head")
    func headOfOtherLayout() throws {
        let line = #"{"type":"Retitled","stream":"episode-7","version":2,"position":12,"schema":1,"time":"2026-01-31T12:00:00.000Z","actor":"a","command":"7b7df4ea-61cf-4f43-bb17-4ad7fe8eea2c","data":{}}"#
        let head = try Array(line.utf8).withUnsafeBytes { bytes in
            let head = try EnvelopeParser.head(bytes)
            return (head.position.rawValue, String(decoding: head.streamBytes, as: UTF8.self), String(decoding: head.typeBytes, as: UTF8.self))
        }
        #expect(head == (12, "episode-7", "Retitled"))
        #expect(throws: EnvelopeParser.Failure.self) { try Array(#"{"type":"Retitled"}"#.utf8).withUnsafeBytes { try EnvelopeParser.head($0) } }
    }

    @Test("a second pass may skip checksums: a frame whose checksum is wrong reads then, and only then")
    func skippedChecksums() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(3, to: "counter", in: log)
        let frames = try library.frameOffsets().frames
        try #require(frames.count == 3)
        // The content checksum is the last 4 bytes of a frame: the second frame's ends where the third begins.
        try library.flipBit(in: library.segmentPath(1), at: frames[2] - 2)
        let damaged = try library.open()
        #expect(throws: EventLogError.self) { try damaged.read(where: nil) { _ in } }
        var read: [String] = []
        try damaged.read(where: nil, checkingChecksums: false) { read.append(RecordedEvent($0).json) }
        #expect(read == [#"{"i":1}"#, #"{"i":2}"#, #"{"i":3}"#])
    }

    @Test("a stream reads back alone and in order, with versions 1, 2, 3...")
    func streamRead() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try log.write { writer in
            for i in 1...50 {
                try writer.append(Given.commit(
                    Given.event(StreamID(rawValue: "episode-\(i % 7)")!, "Step", #"{"i":\#(i)}"#)))
            }
        }
        let events = try library.open().events(in: "episode-3")
        #expect(events.map(\.json) == [3, 10, 17, 24, 31, 38, 45].map { #"{"i":\#($0)}"# })
        #expect(events.map(\.streamVersion) == Array(1...7))
        #expect(try log.events(in: "never-written").isEmpty)
    }

    @Test("another process's appends appear after refresh, not before")
    func refreshSeesNewCommits() throws {
        let library = TemporaryLibrary()
        let reader = try library.create()
        let writer = try library.open()
        try Given.appended(3, to: "s", in: writer)

        #expect(reader.head == .none)
        try reader.refresh()
        #expect(reader.head == LogPosition(3))
        #expect(try reader.events(in: "s").count == 3)
    }

    @Test("a read started inside another read's callback leaves the outer read intact")
    func nestedReads() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try log.write { writer in
            for i in 1...300 {
                try writer.append(Given.commit(Given.event(StreamID(rawValue: "s\(i % 7)")!, "E", #"{"i":\#(i),"pad":"\#(String(repeating: "p", count: 200))"}"#)))
            }
        }
        var scanned: [String] = []
        var streamCounts: [Int] = []
        try log.read { envelope in
            scanned.append(String(decoding: envelope.payload, as: UTF8.self))
            streamCounts.append(try log.events(in: envelope.stream).count)
        }
        #expect(scanned == (1...300).map { #"{"i":\#($0),"pad":"\#(String(repeating: "p", count: 200))"}"# })
        #expect(streamCounts.allSatisfy { $0 == 42 || $0 == 43 })
    }

    @Test("envelopes can be read without decoding the payload: a payload that is not JSON reads, byte for byte")
    func envelopeWithoutPayload() throws {
        // Given two commits appended, and a third written by hand, chained to them, whose payload is not
        // JSON (append would refuse it; only a reader that looked into payloads could tell)
        let library = TemporaryLibrary()
        let log = try library.create()
        try log.write { writer in
            try writer.append(Given.commit(Given.event("a", "Kept", #"{"big":"\#(String(repeating: "z", count: 10_000))"}"#)))
            try writer.append(Given.commit(Given.event("b", "Skipped")))
        }
        let opaque = Array(#"{"unclosed":"\#(String(repeating: "z", count: 1_000)), [}"#.utf8)
        let commit = Given.commit(ProposedEvent(stream: "c", type: "Opaque", payload: opaque))
        let previous = try #require(try log.verify().headHash.flatMap { hex in Array(hex.utf8).withUnsafeBytes(CommitHash.init(hex:)) })
        var line: [UInt8] = []
        EnvelopeEncoder(commit: commit).appendLine(for: commit.events[0], position: LogPosition(3), version: 1, previous: previous, to: &line)
        let segment = library.segmentPath(1)
        try library.write(try library.read(segment) + LZ4Frame.compress(line), to: segment)

        // When the log is read, and the one stream read through the index
        var types: [String] = [], kept: [String] = [], read: [[UInt8]] = []
        let reopened = try library.open()
        try reopened.read { envelope in
            types.append(envelope.type)
            if envelope.hasType("Kept") { kept.append(String(decoding: envelope.payload, as: UTF8.self)) }
            if envelope.hasType("Opaque") { read.append(Array(envelope.payload)) }
            #expect(envelope.isIn("a") == envelope.hasType("Kept"))
        }
        try reopened.read(stream: "c") { envelope in read.append(Array(envelope.payload)) }

        // Then every envelope is read, each payload exactly as written, the one that is not JSON too;
        // a payload is decoded only when asked, and verify, which checks every payload, finds that one
        #expect(types == ["Kept", "Skipped", "Opaque"])
        #expect(kept.count == 1 && kept[0].count == 10_010)
        #expect(read == [opaque, opaque])
        struct Big: Decodable { let big: String }
        try reopened.read(stream: "a") { envelope in
            let payload = try envelope.decodePayload(Big.self)
            #expect(payload.big.count == 10_000)
        }
        #expect(try reopened.verify().problems.map(\.message).contains { $0.contains("data is not valid JSON") })
    }

    @Test(
        "bad commits are refused with a reason, and nothing is written",
        arguments: [
            (Commit(events: [], commandID: CommandID(UUID()), actor: "ana", timestamp: Given.epoch), "at least one event"),
            (Given.commit(Given.event("s", "Has Space")), "type \"Has Space\""),
            (Given.commit(Given.event("s", "T", #"{"a":1"#)), "one JSON value"),
            (Given.commit(Given.event("s", "T", "{\"a\":\n1}")), "no raw line breaks"),
            (Given.commit(Given.event("s", "T", #"{"a":1} {"b":2}"#)), "one JSON value"),
            (Given.commit(Given.event("s"), actor: "  "), "actor"),
            // `episodic log` prints the actor: no control character may drive the terminal that reads it.
            (Given.commit(Given.event("s"), actor: "ana\u{1B}]0;owned\u{7}"), "actor: it holds the control character U+001B (ESC)"),
            (Given.commit(Given.event("s"), actor: "ana\nbob"), "U+000A (LF)"),
            (Given.commit(Given.event("s"), actor: "ana\u{7F}"), "U+007F (DEL)"),
            (Given.commit(Given.event("s"), actor: "ana\u{9B}31m"), "U+009B (CSI)"),
        ])
    func refusals(commit: Commit, reason: String) throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(1, to: "s", in: log)
        let before = try library.snapshot()

        let error = #expect(throws: EventLogError.self) { try log.write { try $0.append(commit) } }

        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
        #expect(try library.snapshot() == before)
        #expect(try library.open().head == LogPosition(1))
    }

    @Test("stream ids and event types are identifiers")
    func identifiers() {
        #expect(StreamID(rawValue: "episode-0f8e:v1.2_x") != nil)
        #expect(StreamID(rawValue: "") == nil)
        #expect(StreamID(rawValue: "has space") == nil)
        #expect(StreamID(rawValue: "quote\"") == nil)
        #expect(StreamID(rawValue: String(repeating: "a", count: 201)) == nil)
    }

    @Test("any time reads back from its text, and a text with any byte changed reads as nothing or as what it says")
    func timestampTexts() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let milliseconds = Int64.random(in: Timestamp.validMilliseconds, using: &random)
            var text: [UInt8] = []
            Timestamp.append(milliseconds: milliseconds, to: &text)
            #expect(text.withUnsafeBytes(Timestamp.parse) == milliseconds)
            text[Int.random(in: 0..<text.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            if let changed = text.withUnsafeBytes(Timestamp.parse) {
                var again: [UInt8] = []
                Timestamp.append(milliseconds: changed, to: &again)
                #expect(again == text, "\(String(decoding: text, as: UTF8.self))")
            }
        }
    }

    @Test("timestamps keep milliseconds across the whole range of years, and refuse what falls outside")
    func timestamps() throws {
        #expect(Timestamp(Date(timeIntervalSince1970: -0.001)) == nil)
        #expect(Timestamp(rawValue: 253_402_300_800_000) == nil)
        #expect(Timestamp(text: "1999-02-30T00:00:00.000Z") == nil)
        #expect(Timestamp(text: "1900-02-29T00:00:00.000Z") == nil)
        #expect(Timestamp(text: "2025-04-31T00:00:00.000Z") == nil)
        #expect(Timestamp(text: "2025-12-00T00:00:00.000Z") == nil)
        #expect(Timestamp(text: "2025-13-01T00:00:00.000Z") == nil)
        #expect(Timestamp(text: "2025-12-01T24:00:00.000Z") == nil)
        #expect(Timestamp(text: "2025-12-0/T00:00:00.000Z") == nil)
        #expect(Timestamp(text: "2025-12-01T00:00:00.00:Z") == nil)
        #expect(Timestamp(text: "2024-02-29T00:00:00.000Z")?.text == "2024-02-29T00:00:00.000Z")
        #expect(Timestamp(text: "2000-02-29T23:59:59.999Z")?.text == "2000-02-29T23:59:59.999Z")
        #expect(Timestamp(text: "2026-11-21 04:53:55.123Z") == nil)
        let decoded = try JSONDecoder().decode([Timestamp].self, from: Data(#"["2026-11-21T04:53:55.123Z"]"#.utf8))
        #expect(decoded.first?.rawValue == 1_795_236_835_123)
        for milliseconds: Int64 in [0, 1, 951_782_400_000, 1_790_000_000_123, 253_402_300_799_999] {
            var text: [UInt8] = []
            Timestamp.append(milliseconds: milliseconds, to: &text)
            #expect(text.count == 24)
            #expect(text.withUnsafeBytes(Timestamp.parse) == milliseconds)
        }
        var leap: [UInt8] = []
        Timestamp.append(milliseconds: 951_782_400_000, to: &leap)
        #expect(String(decoding: leap, as: UTF8.self) == "2000-02-29T00:00:00.000Z")
    }
}
