import Foundation
import Testing

@testable import EventLog

/// Reading thousands of streams, as a catch-up folding thousands of entities does: the stream index's
/// tail is then mapped by stream and frames of sealed segments are kept decoded, and what the reads
/// give must stay exactly what the log holds, before compaction rewrites the frames and after.
@Suite("Reading many streams")
struct ManyStreamReadsTests {
    @Test("each of 600 streams read in a scattered order, from the tail on disk, the tail in memory and compacted frames, gives its own events")
    func manyStreams() throws {
        // Given 600 streams of three events each, written in three rounds, small segments sealed as they fill
        let library = TemporaryLibrary()
        let options = EventLog.Options(segmentSizeLimit: 8 << 10, indexMergeThreshold: 100_000)
        let log = try library.create(options)
        let streams = (0..<600).map { StreamID(rawValue: "entity-\($0)")! }
        for round in 1...3 {
            try log.write { writer in
                for stream in streams { _ = try writer.append(Given.commit(Given.event(stream, "Round", #"{"round":\#(round)}"#))) }
            }
        }
        func check(_ log: EventLog, _ moment: String) throws {
            // A scattered order: frames are met again and again, out of turn
            for i in 0..<streams.count {
                let stream = streams[(i * 7919) % streams.count]
                let events = try log.events(in: stream)
                #expect(events.map(\.streamVersion) == [1, 2, 3], "\(stream) \(moment)")
                #expect(events.allSatisfy { $0.stream == stream }, "\(stream) \(moment)")
                #expect(events.map { String(decoding: $0.payload, as: UTF8.self) } == (1...3).map { #"{"round":\#($0)}"# }, "\(stream) \(moment)")
            }
        }
        // Then every stream reads as written: from the writer's instance (the tail in memory)
        try check(log, "in the writer's instance")
        // And from another instance, whose tail is the one on disk
        let reader = try EventLog(at: library.path, options: options)
        try check(reader, "from the tail on disk")
        #expect(reader.segmentSummaries.count > 3)

        // When the sealed segments are compacted under the reader, whose kept frames they were
        try log.write { writer in _ = try writer.compact(CompactionSettings(frameContentSize: 64 << 10, level: 4)) }
        try reader.refresh()
        #expect(reader.segmentSummaries.dropLast().allSatisfy { $0.isCompacted })
        // Then the reader reads the new frames, not the ones it kept
        try check(reader, "after compaction")
        try check(try EventLog(at: library.path, options: options), "after compaction, afresh")
    }
}
