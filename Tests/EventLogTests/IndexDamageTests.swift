import Foundation
import Testing

@testable import EventLog

/// The stream index is derived data: whatever its files hold, the log answers the same, and nothing
/// in them can stop the program.
@Suite("Stream index damage")
struct IndexDamageTests {
    /// A log of several segments, streams and multi-event commits, with the three index files on disk.
    struct Subject {
        let library = TemporaryLibrary()
        let options = EventLog.Options(segmentSizeLimit: 900, indexMergeThreshold: 3)
        let streams = (0..<7).map { StreamID(rawValue: "stream-\($0)")! }
        var truth: (head: LogPosition, all: [RecordedEvent], byStream: [[RecordedEvent]]) = (.none, [], [])
        var sorted: [UInt8] = []
        var recent: [UInt8] = []
        var tail: [UInt8] = []

        init() throws {
            let log = try library.create(options)
            try log.write { writer in
                for i in 1...60 {
                    let events = (0...(i % 3)).map { j in
                        Given.event(streams[(i + j) % streams.count], "E", #"{"i":\#(i),"j":\#(j)}"#)
                    }
                    try writer.append(Commit(events: events, commandID: CommandID(UUID()), actor: "ana", timestamp: Given.epoch))
                }
            }
            // A few more, so that the recent run holds entries after the run, and the tail after it.
            var extra = 0
            while try library.size(of: tailPath) < UInt64(StreamIndex.tailHeaderSize + 2 * IndexEntry.size)
                || !FileManager.default.fileExists(atPath: recentPath)
            {
                extra += 1
                try log.write { writer in try writer.append(Given.commit(Given.event(streams[extra % streams.count]))) }
            }
            truth = (log.head, try log.events(), try streams.map { try log.events(in: $0) })
            sorted = try library.read(sortedPath)
            recent = try library.read(recentPath)
            tail = try library.read(tailPath)
        }

        var sortedPath: String { library.path + "/index/streams.sorted" }
        var recentPath: String { library.path + "/index/streams.recent" }
        var tailPath: String { library.path + "/index/streams.tail" }

        /// Puts the files in place (the pristine ones where none is given), atomically, so no earlier
        /// instance's mapping sees them change.
        func install(sorted: [UInt8]? = nil, recent: [UInt8]? = nil, tail: [UInt8]? = nil) throws {
            try Data(sorted ?? self.sorted).write(to: URL(fileURLWithPath: sortedPath), options: .atomic)
            try Data(recent ?? self.recent).write(to: URL(fileURLWithPath: recentPath), options: .atomic)
            try Data(tail ?? self.tail).write(to: URL(fileURLWithPath: tailPath), options: .atomic)
        }

        /// Opens, reads every way there is, and writes through the index as found; every answer must be the log's.
        func expectSameAnswers(_ label: String) throws {
            let reader = try library.open(options)
            #expect(reader.head == truth.head, "\(label)")
            for (stream, events) in zip(streams, truth.byStream) {
                #expect(try reader.events(in: stream) == events, "\(label): \(stream)")
            }
            for start in [1, 2, 37, 100, Int(truth.head.rawValue)] {
                #expect(try reader.events(from: LogPosition(UInt64(start))) == Array(truth.all[(start - 1)...]), "\(label): from \(start)")
            }
            let versions = try library.open(options).write { writer in try streams.map { try writer.version(of: $0) } }
            #expect(versions == truth.byStream.map(\.count), "\(label): versions")
        }
    }

    /// Offsets and widths of every field of `streams.sorted` as this subject's file lays them out.
    static func sortedFields(_ bytes: [UInt8]) -> [(name: String, offset: Int, width: Int)] {
        let segments = Int(bytes.littleEndian(at: 12, as: UInt32.self))
        let entries = Int(bytes.littleEndian(at: 24, as: UInt64.self))
        let fingerprints = SortedRun.headerSize
        let firstEntry = fingerprints + segments * 8
        let sparse = firstEntry + entries * IndexEntry.size
        var fields: [(String, Int, Int)] = [
            ("format", 8, 4), ("segment count", 12, 4), ("covered", 16, 8), ("entry count", 24, 8), ("sparse count", 32, 8),
            ("fingerprint segment", fingerprints, 4), ("fingerprint generation", fingerprints + 4, 4),
        ]
        // A recent run may hold none of the positions 1, 257, 513, ...
        if bytes.littleEndian(at: 32, as: UInt64.self) > 0 {
            fields += [("sparse position", sparse, 8), ("sparse segment", sparse + 8, 4), ("sparse frame", sparse + 12, 4)]
        }
        for (name, base) in [("header entry", 40), ("first entry", firstEntry), ("middle entry", firstEntry + entries / 2 * IndexEntry.size)] {
            fields += entryFields(name, at: base)
        }
        return fields
    }

    static func tailFields(_ bytes: [UInt8]) -> [(name: String, offset: Int, width: Int)] {
        let count = (bytes.count - StreamIndex.tailHeaderSize) / IndexEntry.size
        var fields: [(String, Int, Int)] = [("tail base", 8, 8), ("tail reserved", 16, 8)]
        fields += entryFields("first tail entry", at: StreamIndex.tailHeaderSize)
        fields += entryFields("last tail entry", at: StreamIndex.tailHeaderSize + (count - 1) * IndexEntry.size)
        return fields
    }

    static func entryFields(_ name: String, at base: Int) -> [(String, Int, Int)] {
        [("\(name) hash", base, 8), ("\(name) position", base + 8, 8), ("\(name) segment", base + 16, 4),
         ("\(name) frame", base + 20, 4), ("\(name) line", base + 24, 4), ("\(name) check", base + 28, 4)]
    }

    /// Values a field is set to: nothing, one, all ones, one more and one less than it holds, and a huge one.
    static func values(replacing current: UInt64, width: Int) -> [UInt64] {
        let maximum = width == 8 ? UInt64.max : UInt64(UInt32.max)
        return [0, 1, maximum, (current &+ 1) & maximum, (current &- 1) & maximum, maximum / 3]
    }

    @Test("every field of any index file, set to other values, with or without a matching check word, changes no answer")
    func everyField() throws {
        let subject = try Subject()
        #expect(subject.sorted.count > SortedRun.headerSize && subject.tail.count > StreamIndex.tailHeaderSize + IndexEntry.size)
        #expect(subject.recent.count > SortedRun.headerSize + IndexEntry.size)
        var trials = 0
        let files = [
            ("sorted", subject.sorted, Self.sortedFields(subject.sorted)), ("recent", subject.recent, Self.sortedFields(subject.recent)),
            ("tail", subject.tail, Self.tailFields(subject.tail)),
        ]
        for (file, pristine, fields) in files {
            for field in fields {
                let current = field.width == 8
                    ? pristine.littleEndian(at: field.offset, as: UInt64.self) : UInt64(pristine.littleEndian(at: field.offset, as: UInt32.self))
                for value in Self.values(replacing: current, width: field.width) where value != current {
                    // A resealed hash is left out: entries forged with valid check words can hide a
                    // stream's events from a search by hash, as a forged log could hide them; the check
                    // words are there to catch damage, and verify (which never reads the index) forgery.
                    for resealed in field.name.hasSuffix("hash") || field.name.hasSuffix("check") ? [false] : [false, true] {
                        var bytes = pristine
                        Self.set(&bytes, at: field.offset, width: field.width, to: value)
                        // A forger recomputes the entry's check word: the entry is then well-formed but wrong.
                        if resealed, let entryStart = Self.entryStart(of: field, in: file, bytes: bytes) { Self.reseal(&bytes, entryAt: entryStart) }
                        try subject.install(
                            sorted: file == "sorted" ? bytes : nil, recent: file == "recent" ? bytes : nil, tail: file == "tail" ? bytes : nil)
                        try subject.expectSameAnswers("\(file) \(field.name) = \(value)\(resealed ? ", resealed" : "")")
                        trials += 1
                    }
                }
            }
        }
        #expect(trials > 450)
    }

    @Test("index files that are empty, short, garbage or huge-claiming change no answer")
    func wholeFiles() throws {
        let subject = try Subject()
        let (sorted, recent, tail) = (subject.sorted, subject.recent, subject.tail)
        let cases: [(String, [UInt8]?, [UInt8]?, [UInt8]?)] = [
            ("all empty", [], [], []),
            ("sorted header only", Array(sorted.prefix(SortedRun.headerSize)), nil, nil),
            ("recent header only", nil, Array(recent.prefix(SortedRun.headerSize)), nil),
            ("tail header only", nil, nil, Array(tail.prefix(StreamIndex.tailHeaderSize))),
            ("sorted garbage", (0..<sorted.count).map { UInt8(truncatingIfNeeded: $0 &* 31) }, nil, nil),
            ("recent garbage", nil, (0..<recent.count).map { UInt8(truncatingIfNeeded: $0 &* 29) }, nil),
            ("tail garbage", nil, nil, (0..<tail.count).map { UInt8(truncatingIfNeeded: $0 &* 17) }),
            ("tail one byte short", nil, nil, Array(tail.dropLast())),
            ("recent empty", nil, [], nil),
            ("sorted swapped for the tail", tail, nil, sorted),
            ("sorted and recent swapped", recent, sorted, nil),
            ("recent in the place of both runs", recent, recent, nil),
        ]
        for (label, sorted, recent, tail) in cases {
            try subject.install(sorted: sorted, recent: recent, tail: tail)
            try subject.expectSameAnswers(label)
        }
    }

    /// Where the 32-byte entry that holds `field` starts, if the field is in an entry.
    static func entryStart(of field: (name: String, offset: Int, width: Int), in file: String, bytes: [UInt8]) -> Int? {
        guard field.name.contains("entry") else { return nil }
        if file == "tail" { return StreamIndex.tailHeaderSize + (field.offset - StreamIndex.tailHeaderSize) / IndexEntry.size * IndexEntry.size }
        if field.name.hasPrefix("header entry") { return 40 }
        let segments = Int(bytes.littleEndian(at: 12, as: UInt32.self))
        let first = SortedRun.headerSize + segments * 8
        return first + (field.offset - first) / IndexEntry.size * IndexEntry.size
    }

    static func reseal(_ bytes: inout [UInt8], entryAt start: Int) {
        let entry = IndexEntry(
            streamHash: bytes.littleEndian(at: start), position: bytes.littleEndian(at: start + 8),
            segment: bytes.littleEndian(at: start + 16), frameOffset: bytes.littleEndian(at: start + 20),
            lineOffset: bytes.littleEndian(at: start + 24))
        var encoded: [UInt8] = []
        entry.append(to: &encoded)
        bytes.replaceSubrange(start..<(start + IndexEntry.size), with: encoded)
    }

    static func set(_ bytes: inout [UInt8], at offset: Int, width: Int, to value: UInt64) {
        for i in 0..<width { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
    }
}
