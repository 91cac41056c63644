import Foundation
import Testing

@testable import EventLog

/// `index/segments`: the compacted segments' headers, so that opening the log opens only the segment
/// being written.
@Suite("Segment catalog")
struct SegmentCatalogTests {
    /// A compacted log of several segments, its files older than the catalog lets in, and a writer's
    /// section since then, which kept the catalog.
    func compactedLog() throws -> (TemporaryLibrary, EventLog) {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 1024))
        try log.write { writer in
            for i in 1...60 {
                try writer.append(Given.commit(
                    Given.event(StreamID(rawValue: "episode-\(i % 3)")!, "Retitled", #"{"title":"Episode \#(i) of the show","i":\#(i)}"#)))
            }
        }
        Thread.sleep(forTimeInterval: Double(SegmentCatalog.settledAfter) / 1e9 + 0.05)
        try log.write { _ in }
        return (library, log)
    }

    @Test("a log opened after a writer kept the catalog opens only its last segment, and lists every one as a full reading does")
    func openingReadsNoCompactedSegment() throws {
        // Given a compacted log whose writer kept the catalog
        let (library, _) = try compactedLog()
        let catalog = SegmentCatalog.load(from: library.path + "/index")
        let segments = try library.open().segments
        #expect(segments.count > 3)
        #expect(catalog.entries.keys.sorted() == segments.dropLast().map(\.number))

        // When the log is opened again
        let reader = try library.open()

        // Then only the last segment was opened, and the listing is the one that reading every header gives
        #expect(reader.listed.keys.sorted() == [segments.last!.number])
        try FileManager.default.removeItem(atPath: library.path + "/index/" + SegmentCatalog.fileName)
        let reading = try library.open()
        #expect(reading.listed.count == segments.count)
        #expect(reader.segments == reading.segments)
        #expect(try reader.events() == reading.events())
    }

    @Test("a segment changed in place since the catalog was kept is read again: the catalog is not trusted over the file")
    func changedSegmentIsReadAgain() throws {
        // Given a compacted log whose writer kept the catalog
        let (library, _) = try compactedLog()
        #expect(SegmentCatalog.load(from: library.path + "/index").entries[2]?.header.generation == 1)

        // When segment 2's generation is changed in place, keeping its inode and its size
        try library.flipBit(in: library.segmentPath(2), at: 32)

        // Then opening the log reads its header from the file
        let reader = try library.open()
        #expect(reader.segments[1].header.generation == 17)
        #expect(reader.listed[2] != nil)
    }

    @Test("a damaged catalog is read as none, and the next writer keeps it again")
    func damagedCatalog() throws {
        // Given a compacted log whose catalog is damaged
        let (library, _) = try compactedLog()
        let path = library.path + "/index/" + SegmentCatalog.fileName
        let kept = try library.read(path)
        let count = try library.open().segments.count
        for damaged in [Array(kept.dropLast()), Array(kept.prefix(20)), [], Array("not a catalog".utf8)] + (0..<kept.count).map({ flipped(kept, at: $0) }) {
            #expect(SegmentCatalog(damaged) == nil)
        }
        try library.write(flipped(kept, at: 40), to: path)

        // When the log is opened, then written to
        let reader = try library.open()
        #expect(reader.listed.count == count)
        try reader.write { _ in }

        // Then the writer kept the catalog again, as it was
        #expect(try library.read(path) == kept)
        #expect(try library.open().listed.count == 1)
    }

    @Test("segments compacted a moment ago, and the last segment, stay out of the catalog")
    func freshSegmentsStayOut() throws {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 1024))
        try log.write { writer in
            for i in 1...40 { try writer.append(Given.commit(Given.event("episode-1", "Retitled", #"{"title":"Episode \#(i) of the show"}"#))) }
        }
        try log.write { _ in }
        #expect(SegmentCatalog.load(from: library.path + "/index").entries.isEmpty)
        #expect(try library.open().listed.count == log.segments.count)
    }

    private func flipped(_ bytes: [UInt8], at offset: Int) -> [UInt8] {
        var bytes = bytes
        bytes[offset] ^= 0x01
        return bytes
    }
}
