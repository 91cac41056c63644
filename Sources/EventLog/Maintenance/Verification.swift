import CoreValues
import Foundation

/// What ``EventLog/verify()`` found.
public struct VerificationReport: Sendable, CustomStringConvertible {
    /// One thing that is not as it was written.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The segment and byte offset, when the problem is in the log; nil for a blob.
        public var segment: String?
        public var offset: UInt64?
        public var message: String

        public var description: String {
            if let segment, let offset { return "\(segment) at byte \(offset): \(message)" }
            return message
        }
    }

    public var segments = 0
    public var frames = 0
    public var events: UInt64 = 0
    public var streams = 0
    public var blobs = 0
    public var problems: [Problem] = []

    public var isClean: Bool { problems.isEmpty }

    public var description: String {
        let summary = "\(segments) segments, \(frames) frames, \(events) events in \(streams) streams, \(blobs) blobs"
        guard !isClean else { return "log verified: \(summary); no problems." }
        return "log damaged: \(summary); \(problems.count) problems:\n"
            + problems.map { "  - \($0)" }.joined(separator: "\n")
    }
}

extension EventLog {
    /// Reads everything and checks it: every frame's checksum, every line's JSON, positions 1, 2, 3...
    /// without gaps, each stream's versions 1, 2, 3... without gaps, and the sha256 of every blob an
    /// event refers to. It reports every problem it finds rather than stopping at the first.
    public func verify() throws(EventLogError) -> VerificationReport {
        var report = VerificationReport()
        var expected = LogPosition(1)
        var streamVersions: [String: Int] = [:]
        var referenced = Set<BlobRef>()
        let segmentFiles = try FileSystem.contents(of: layout.logDirectory).compactMap(Segment.number(inName:)).sorted()
        for (i, number) in segmentFiles.enumerated() {
            let name = Segment.name(of: number)
            func problem(_ offset: UInt64, _ message: String) {
                report.problems.append(.init(segment: name, offset: offset, message: message))
            }
            guard number == UInt32(i + 1) else {
                report.problems.append(.init(segment: nil, offset: nil, message: "segment \(Segment.name(of: UInt32(i + 1))) is missing"))
                break
            }
            report.segments += 1
            let file = try File.openForReading(layout.segmentPath(number))
            let size = try file.size()
            guard let header = try? SegmentHeader.parse(file.read(count: SegmentHeader.size, at: 0)) else {
                problem(0, "not a valid segment header")
                continue
            }
            if header.firstPosition != expected {
                problem(24, "starts at position \(header.firstPosition), expected \(expected)")
            }
            var cursor = FrameCursor(file: file, from: UInt64(SegmentHeader.size), end: size, buffer: maintenance.fileBuffer)
            walk: while true {
                switch try cursor.next() {
                case .end:
                    break walk
                case .incomplete(let offset):
                    problem(offset, "an incomplete frame of \(size - offset) bytes (a torn write; the next writer cuts it off)")
                    break walk
                case .invalid(let offset, let reason):
                    problem(offset, "not an LZ4 frame: \(reason)")
                    break walk
                case .frame(let offset, let bytes):
                    report.frames += 1
                    let length: Int
                    do {
                        length = try maintenance.decode(bytes)
                    } catch {
                        problem(offset, "frame fails its check: \(error.reason)")
                        continue walk
                    }
                    let lines = Lines(maintenance.content.bytes(0..<length))
                    if lines.hasUnterminatedTail { problem(offset, "the frame's last line has no newline") }
                    for (_, line) in lines {
                        let envelope: EventEnvelope
                        do {
                            envelope = try EnvelopeParser.parse(line, strict: true)
                        } catch {
                            problem(offset, "an event cannot be read: \(error)")
                            continue
                        }
                        report.events += 1
                        if envelope.position != expected {
                            problem(offset, "found position \(envelope.position) where \(expected) should be")
                        }
                        expected = envelope.position.next
                        let stream = envelope.stream.rawValue
                        let previous = streamVersions[stream] ?? 0
                        if envelope.streamVersion != previous + 1 {
                            problem(offset, "stream \(stream) jumps from version \(previous) to \(envelope.streamVersion) at position \(envelope.position)")
                        }
                        streamVersions[stream] = envelope.streamVersion
                        referenced.formUnion(envelope.blobs)
                    }
                }
            }
        }
        report.streams = streamVersions.count
        for ref in referenced.sorted(by: { $0.sha256 < $1.sha256 }) {
            report.blobs += 1
            do {
                _ = try blobs.get(ref)
            } catch {
                report.problems.append(.init(segment: nil, offset: nil, message: error.description))
            }
        }
        return report
    }
}
