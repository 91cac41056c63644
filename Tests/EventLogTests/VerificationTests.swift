import Foundation
import TestSupport
import Testing

@testable import EventLog

@Suite("Verify")
struct VerificationTests {
    /// The library is returned with the log: dropping it would delete the folder under the log. Its
    /// segments keep the frames commits wrote (nothing compacts them), so that damage can be put in a
    /// middle one.
    func libraryWithBlobs() throws -> (library: TemporaryLibrary, log: EventLog, ref: BlobRef) {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 2048, automaticCompaction: nil))
        let ref = try log.blobs.put(Array("a transcript".utf8))
        try log.write { writer in
            for i in 1...30 {
                try writer.append(Given.commit(
                    Given.event(StreamID(rawValue: "episode-\(i % 4)")!, "TranscriptImported", #"{"i":\#(i)}"#, blobs: i % 10 == 0 ? [ref] : [])))
            }
        }
        return (library, log, ref)
    }

    @Test("a healthy log verifies clean, counting what it checked")
    func clean() throws {
        let (library, log, _) = try libraryWithBlobs()
        let report = try withExtendedLifetime(library) { try log.verify() }
        #expect(report.isClean, "\(report)")
        #expect(report.events == 30)
        #expect(report.streams == 4)
        #expect(report.blobs == 1)
        #expect(report.segments == log.segments.count && report.segments > 1)
        #expect(report.description.hasPrefix("log verified"))
    }

    @Test("a flipped byte is reported with its segment and frame offset")
    func flippedByte() throws {
        let (library, log, _) = try libraryWithBlobs()
        let (frames, _) = try library.frameOffsets(ofSegment: 2)
        try library.flipBit(in: library.segmentPath(2), at: frames[1] + 30)

        let report = try log.verify()

        #expect(!report.isClean)
        #expect(report.problems.first?.segment == "00000002.seg")
        #expect(report.problems.first?.offset == frames[1])
        #expect(report.problems.first?.message.contains("check") == true)
    }

    @Test("a damaged or missing blob is reported")
    func damagedBlob() throws {
        let (library, log, ref) = try libraryWithBlobs()
        try withExtendedLifetime(library) {
            try FileManager.default.removeItem(atPath: log.blobs.path(for: ref))
            #expect(try log.verify().problems.map(\.message) == [EventLogError.blobMissing(ref).description])
            try log.blobs.put(Array("a transcript".utf8))
            #expect(try log.verify().isClean)
        }
    }

    @Test("gaps in positions and in stream versions are reported")
    func continuity() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(2, to: "s", in: log)
        // Forge a frame by hand: position 4 (3 is missing), and version 5 of stream s (3 and 4 are missing).
        var line: [UInt8] = []
        let commit = Given.commit(Given.event("s"))
        EnvelopeEncoder(commit: commit).appendLine(for: commit.events[0], position: LogPosition(4), version: 5, previous: nil, to: &line)
        let segment = library.segmentPath(1)
        try library.write(try library.read(segment) + LZ4Frame.compress(line), to: segment)

        let messages = try log.verify().problems.map(\.message)

        #expect(messages.contains("found position 4 where 3 should be"))
        #expect(messages.contains("stream s jumps from version 2 to 5 at position 4"))
    }
}

@Suite("The library folder")
struct LibraryTests {
    @Test("a library path that is a file is refused, and the file is left alone")
    func pathIsAFile() throws {
        let library = TemporaryLibrary()
        try library.write(Array("notes".utf8), to: library.path)

        #expect(throws: EventLogError.libraryPathIsAFile(path: library.path)) { try library.create() }
        #expect(throws: EventLogError.libraryPathIsAFile(path: library.path)) { try library.open() }
        #expect(try library.read(library.path) == Array("notes".utf8))
    }

    @Test("a missing library says how to create one")
    func missing() throws {
        let library = TemporaryLibrary()
        let error = #expect(throws: EventLogError.libraryMissing(path: library.path)) { try library.open() }
        #expect(error?.description.contains("Create one first") == true)
        #expect(!FileManager.default.fileExists(atPath: library.path))
    }

    @Test("a library written by a newer format is refused before anything is touched")
    func newerFormat() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(2, to: "s", in: log)

        // A newer FORMAT file.
        let current = EventLog.formatVersion, newer = EventLog.formatVersion + 1
        try library.write(Array("episodic library format \(newer)\n".utf8), to: library.path + "/FORMAT")
        var before = try library.snapshot()
        let error = #expect(throws: EventLogError.self) { try library.open() }
        #expect(error == .newerFormat(file: library.path + "/FORMAT", found: newer, supported: current))
        #expect(error?.description.contains("Upgrade Episodic") == true)
        #expect(throws: EventLogError.self) { try library.create() }
        #expect(try library.snapshot() == before)

        // A segment written in a newer format.
        try library.write(Array("episodic library format \(current)\n".utf8), to: library.path + "/FORMAT")
        var segment = try library.read(library.segmentPath(1))
        segment[16] = UInt8(newer)
        try library.write(segment, to: library.segmentPath(1))
        before = try library.snapshot()
        #expect(throws: EventLogError.newerFormat(file: library.segmentPath(1), found: newer, supported: current)) {
            try library.open()
        }
        #expect(try library.snapshot() == before)
    }

    @Test("creating over an existing library keeps its log")
    func createIsIdempotent() throws {
        let library = TemporaryLibrary()
        try Given.appended(2, to: "s", in: try library.create())
        #expect(try library.create().head == LogPosition(2))
    }
}

@Suite("Standard tools")
struct StandardToolTests {
    @Test("`lz4 -dc` of a segment, appended or compacted, gives valid JSON Lines")
    func lz4Tool() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/lz4") else {
            try Need.unmet("the lz4 tool is not installed (apt-get install lz4)")
            return
        }
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 4096))
        try log.write { writer in
            for i in 1...60 {
                try writer.append(Given.commit(
                    Given.event(StreamID(rawValue: "e-\(i % 5)")!, "Titled", #"{"title":"Épisode \#(i) \"quoted\""}"#),
                    actor: "José"))
            }
        }
        try log.write { _ = try $0.compact() }
        #expect(log.segments.first?.header.generation == 1)

        var positions: [Int] = []
        for segment in log.segments {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/lz4")
            process.arguments = ["-dc", segment.path]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(data.last == 0x0A)
            for line in data.split(separator: 0x0A) {
                let object = try JSONSerialization.jsonObject(with: Data(line)) as! [String: Any]
                positions.append(object["position"] as! Int)
                #expect(object["actor"] as? String == "José")
                #expect((object["data"] as? [String: Any])?["title"] != nil)
            }
        }
        #expect(positions == Array(1...60))
    }
}
