import Crypto
import Foundation
import Testing

@testable import EventLog

/// A fold kept at a point of its stream goes on from the events after it, and only while the log holds
/// the very event it stands after.
@Suite("Folds kept of long streams")
struct StreamSnapshotTests {
    /// The stream "s" of `compactableLibrary()`'s log, as (position, version, identity) of each event,
    /// and the payloads, in stream order.
    func points(of stream: StreamID, in log: EventLog) throws -> [(point: StreamPoint, json: String)] {
        var found: [(StreamPoint, String)] = []
        try log.readAsAppended(stream: stream) { envelope in
            found.append((StreamPoint(position: envelope.position, version: envelope.streamVersion, identity: envelope.identity), RecordedEvent(envelope).json))
        }
        return found
    }

    func payloads(of stream: StreamID, in log: EventLog, after point: StreamPoint) throws -> [String]? {
        var payloads: [String] = []
        return try log.read(stream: stream, after: point) { payloads.append(RecordedEvent($0).json) } ? payloads : nil
    }

    @Test("a stream read after a point gives the events after it, compacted or not")
    func readAfterPoint() throws {
        let (library, log) = try ChainTests().compactableLibrary()
        let stream: StreamID = "s"
        let all = try points(of: stream, in: log)
        #expect(all.count > 100)
        for at in [0, 1, 57, all.count - 2, all.count - 1] {
            #expect(try payloads(of: stream, in: log, after: all[at].point) == all[(at + 1)...].map(\.json))
        }
        try log.write { _ = try $0.compact(ChainTests.smallFrames) }
        let compacted = try library.open()
        for at in [0, 57, all.count - 1] {
            #expect(try payloads(of: stream, in: compacted, after: all[at].point) == all[(at + 1)...].map(\.json))
        }
    }

    @Test("a point the log does not hold gives nothing: another event there, another version, another stream, past the head")
    func pointNotHeld() throws {
        let (library, log) = try ChainTests().compactableLibrary()
        defer { withExtendedLifetime(library) {} }
        let stream: StreamID = "s"
        let all = try points(of: stream, in: log)
        let point = all[40].point
        let other = all[41].point
        var wrong = [
            StreamPoint(position: point.position, version: point.version, identity: other.identity),
            StreamPoint(position: point.position, version: point.version + 1, identity: point.identity),
            StreamPoint(position: LogPosition(log.head.rawValue + 1), version: all.count + 1, identity: point.identity),
        ]
        // The event of another stream at its own position.
        let a = try points(of: "a", in: log)[0].point
        wrong.append(a)
        for bad in wrong {
            #expect(try payloads(of: stream, in: log, after: bad) == nil, "\(bad)")
        }
    }

    /// A library whose stream "s" has three events, and a fold of them in format "f-1", not yet kept.
    func threeEvents() throws -> (library: TemporaryLibrary, log: EventLog, kept: StreamSnapshot) {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(3, to: "s", in: log)
        let identity = try #require(try log.identity(at: LogPosition(3)))
        let point = StreamPoint(position: LogPosition(3), version: 3, identity: identity)
        return (library, log, StreamSnapshot(point: point, format: "f-1", state: Array(#"{"n":3}"#.utf8)))
    }

    @Test("a kept fold reads back only whole, in its own format")
    func keptFoldReadsBackWhole() throws {
        let (library, log, kept) = try threeEvents()
        #expect(log.snapshots.snapshot(of: "s", format: "f-1") == nil)

        log.snapshots.keep(kept, of: "s")
        #expect(log.snapshots.snapshot(of: "s", format: "f-1") == kept)
        #expect(log.snapshots.snapshot(of: "s", format: "f-2") == nil)
        #expect(log.snapshots.snapshot(of: "t", format: "f-1") == nil)

        // A file cut short, or with one bit changed anywhere, is no snapshot.
        let file = log.snapshots.path(of: "s")
        let size = try library.size(of: file)
        for offset in [0, size / 2, size - 1] {
            log.snapshots.keep(kept, of: "s")
            try library.flipBit(in: file, at: offset)
            #expect(log.snapshots.snapshot(of: "s", format: "f-1") == nil, "bit flipped at \(offset)")
        }
        log.snapshots.keep(kept, of: "s")
        try library.truncate(file, to: size - 1)
        #expect(log.snapshots.snapshot(of: "s", format: "f-1") == nil)

        // Kept again, it replaces what was there.
        log.snapshots.keep(kept, of: "s")
        #expect(log.snapshots.snapshot(of: "s", format: "f-1") == kept)
    }

    @Test("a fold is written in incoming/ and renamed into place; what a killed writer left there goes at the next keep, what a live one writes stays")
    func keptThroughIncoming() throws {
        // Given a fold kept, and in incoming/ a file a killed writer left and one a live writer holds
        let (library, log, kept) = try threeEvents()
        defer { withExtendedLifetime(library) {} }
        log.snapshots.keep(kept, of: "s")
        let incoming = log.snapshots.directory + "/" + StreamSnapshots.incomingFolder
        #expect(try FileSystem.contents(of: incoming).isEmpty)
        #expect(FileManager.default.createFile(atPath: incoming + "/.fold-0123456789abcdef", contents: Data("half".utf8)))
        let live = open(incoming + "/.fold-fedcba9876543210", O_RDWR | O_CREAT, 0o644)
        defer { close(live) }
        #expect(live >= 0 && flock(live, LOCK_EX) == 0)

        // When another stream's fold is kept
        log.snapshots.keep(kept, of: "t")

        // Then both folds read back, the abandoned file is gone and the live writer's stays
        #expect(log.snapshots.snapshot(of: "s", format: "f-1") == kept && log.snapshots.snapshot(of: "t", format: "f-1") == kept)
        #expect(try FileSystem.contents(of: incoming) == [".fold-fedcba9876543210"])
        #expect(try FileSystem.contents(of: log.snapshots.directory).sorted() == [StreamSnapshots.incomingFolder, "s-s", "s-t"])
    }

    @Test("a pipe, a link or a huge file in place of a kept fold is no snapshot, and reading it never waits")
    func oddFiles() throws {
        let (library, log, kept) = try threeEvents()
        log.snapshots.keep(kept, of: "s")
        let file = log.snapshots.path(of: "s")
        let whole = try library.read(file)

        // A pipe: opening it to read would wait for a writer that never comes.
        try FileManager.default.removeItem(atPath: file)
        #expect(mkfifo(file, 0o644) == 0)
        #expect(log.snapshots.snapshot(of: "s", format: "f-1") == nil)
        #expect(log.snapshots.all().isEmpty)

        // A link to a whole kept fold elsewhere.
        try FileManager.default.removeItem(atPath: file)
        try library.write(whole, to: library.folder + "/elsewhere")
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: library.folder + "/elsewhere")
        #expect(log.snapshots.snapshot(of: "s", format: "f-1") == nil)

        // A file larger than any fold: its header may be whole, it is not read.
        try FileManager.default.removeItem(atPath: file)
        try library.write(whole + [UInt8](repeating: 0x20, count: StreamSnapshots.largest), to: file)
        #expect(log.snapshots.snapshot(of: "s", format: "f-1") == nil)

        // Kept again, the fold replaces what was there.
        log.snapshots.keep(kept, of: "s")
        #expect(log.snapshots.snapshot(of: "s", format: "f-1") == kept)
    }

    @Test("a folder in place of a kept fold, or a file in place of incoming/, is set aside, and the fold kept again")
    func folderInPlace() throws {
        // Given a fold kept, then a folder (not empty) in its place, and a file in place of incoming/
        let (library, log, kept) = try threeEvents()
        defer { withExtendedLifetime(library) {} }
        log.snapshots.keep(kept, of: "s")
        let file = log.snapshots.path(of: "s")
        let incoming = log.snapshots.directory + "/" + StreamSnapshots.incomingFolder
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createDirectory(atPath: file + "/inside", withIntermediateDirectories: true)
        try FileManager.default.removeItem(atPath: incoming)
        try library.write(Array("not a folder".utf8), to: incoming)
        #expect(log.snapshots.snapshot(of: "s", format: "f-1") == nil)

        // When the fold is kept again
        log.snapshots.keep(kept, of: "s")

        // Then it reads back; the folder and the file are kept aside as they were, and said so
        #expect(log.snapshots.snapshot(of: "s", format: "f-1") == kept)
        #expect(FileSystem.isDirectory(file + ".damaged/inside") == true)
        #expect(try library.read(incoming + ".damaged") == Array("not a folder".utf8))
        #expect(FileSystem.isDirectory(incoming) == true)
        #expect(log.snapshots.all().map(\.stream) == ["s"])
        #expect(log.setAsideDerivedFiles == [
            SetAsideDerivedFile(place: "snapshots/incoming/", keptAs: "snapshots/incoming.damaged", found: "a file"),
            SetAsideDerivedFile(place: "snapshots/s-s", keptAs: "snapshots/s-s.damaged", found: "a folder"),
        ])
    }

    /// The header as the builds before this one wrote it, with Foundation's `JSONEncoder`.
    struct EncodedHeader: Codable {
        var position: UInt64
        var version: Int
        var identity: String
        var format: String
        var sha256: String
    }

    @Test("a kept fold's header is the JSON object earlier builds wrote; members in another order, or unknown, read as well")
    func headerAsBefore() throws {
        let (_, _, kept) = try threeEvents()
        let header = EncodedHeader(
            position: kept.point.position.rawValue, version: kept.point.version, identity: kept.point.identity.rawValue,
            format: kept.format, sha256: SHA256.hash(data: kept.state).lowercaseHex)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let before = Array(try encoder.encode(header))
        #expect(StreamSnapshots.encode(kept) == before + [0x0A] + kept.state)

        let reordered = #"{ "sha256": "\#(header.sha256)", "version": \#(header.version), "note": [1, {"a": null}], "#
            + #""identity": "\#(header.identity)", "position": \#(header.position), "format": "f\u002d1" }"#
        #expect(StreamSnapshots.decode(Array(reordered.utf8) + [0x0A] + kept.state) == kept)

        // A member missing, or of another kind, or anything after the object: no snapshot.
        for broken in [
            #"{"format":"f-1","identity":"\#(header.identity)","position":\#(header.position),"sha256":"\#(header.sha256)"}"#,
            #"{"format":"f-1","identity":"\#(header.identity)","position":"\#(header.position)","sha256":"\#(header.sha256)","version":1}"#,
            String(decoding: before, as: UTF8.self) + " {}",
        ] {
            #expect(StreamSnapshots.decode(Array(broken.utf8) + [0x0A] + kept.state) == nil, "\(broken)")
        }
    }
}
