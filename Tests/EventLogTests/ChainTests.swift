import CLZ4
import Crypto
import Foundation
import Testing

@testable import EventLog

/// Log format 2: each commit names the hash of the one before it, from the library's genesis hash on.
@Suite("Hash chain")
struct ChainTests {
    /// Six single-event commits and one of three events, in one segment, one frame each.
    func chainedLibrary() throws -> (library: TemporaryLibrary, log: EventLog) {
        let library = TemporaryLibrary()
        let log = try library.create()
        try log.write { writer in
            for i in 1...6 { try writer.append(Given.commit(Given.event("s", "Step", #"{"i":\#(i)}"#))) }
            try writer.append(Given.commit(Given.event("a"), Given.event("b"), Given.event("a")))
        }
        return (library, log)
    }

    /// The decoded content of each frame of a segment.
    func frameContents(_ library: TemporaryLibrary, segment: UInt32 = 1) throws -> [[UInt8]] {
        let bytes = try library.read(library.segmentPath(segment))
        let (frames, end) = try library.frameOffsets(ofSegment: segment)
        return try zip(frames, frames.dropFirst() + [end]).map { start, stop in
            try Array(bytes[Int(start)..<Int(stop)]).withUnsafeBytes { try LZ4Decoder().decode($0) }
        }
    }

    /// The `prev` of the first line of a frame's content.
    func previous(in content: [UInt8]) throws -> String? {
        let line = content.prefix { $0 != 0x0A }
        let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
        return object?["prev"] as? String
    }

    func sha256(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }

    /// Rewrites a segment with these frame contents, each compressed as a commit is.
    func rewrite(_ library: TemporaryLibrary, segment: UInt32 = 1, frames contents: [[UInt8]]) throws {
        let header = Array(try library.read(library.segmentPath(segment)).prefix(SegmentHeader.size))
        try library.write(header + contents.flatMap { LZ4Frame.compress($0) }, to: library.segmentPath(segment))
        if FileManager.default.fileExists(atPath: library.path + "/index") { try FileManager.default.removeItem(atPath: library.path + "/index") }
    }

    @Test("a new library has an ID, and every commit's first line names the hash of the commit before it")
    func links() throws {
        let (library, log) = try chainedLibrary()
        let id = try #require(LibraryID(text: String(decoding: try library.read(library.path + "/ID"), as: UTF8.self)))
        #expect(String(decoding: try library.read(library.path + "/FORMAT"), as: UTF8.self) == "episodic library format \(EventLog.formatVersion)\n")

        let contents = try frameContents(library)
        #expect(contents.count == 7)
        #expect(try previous(in: contents[0]) == CommitHash.genesis(of: id).hex)
        #expect(try previous(in: contents[0]) == sha256(Array("episodic-chain:\(id.uuid.uuidString.lowercased())".utf8)))
        for i in 1..<contents.count {
            #expect(try previous(in: contents[i]) == sha256(contents[i - 1]), "commit \(i + 1)")
        }
        // Only the first line of a commit carries it.
        let lines = contents[6].split(separator: 0x0A)
        #expect(lines.count == 3 && lines.dropFirst().allSatisfy { !String(decoding: $0, as: UTF8.self).contains("\"prev\"") })

        let report = try log.verify()
        #expect(report.isClean, "\(report)")
        #expect(report.chainStart == LogPosition(1))
        #expect(report.commits == 7)
        #expect(report.headHash == sha256(contents[6]))
    }

    @Test("the genesis hash is the test vector of log-format.md")
    func genesisVector() throws {
        let id = try #require(LibraryID(text: "406e7a01-c965-45d6-869a-104bf427bca6\n"))
        #expect(CommitHash.genesis(of: id).hex == "057b7e74d279617e1293091094e848f6987d27d216ed58a884a77e17efec06e1")
    }

    @Test("a writer that reopens the library goes on with the chain, after its own commits and others'")
    func continuesAcrossWriters() throws {
        let (library, _) = try chainedLibrary()
        try Given.appended(2, to: "t", in: try library.open())
        try Given.appended(1, to: "u", in: try library.open(EventLog.Options(segmentSizeLimit: 64)))  // rolls a segment
        #expect(FileManager.default.fileExists(atPath: library.segmentPath(2)))
        let report = try library.open().verify()
        #expect(report.isClean, "\(report)")
        #expect(report.commits == 10)
    }

    @Test("verify names the first commit after a frame edited, removed, reordered or copied from another library", arguments: [
        "edited", "removed", "reordered", "copied",
    ])
    func tampering(how: String) throws {
        let (library, _) = try chainedLibrary()
        var contents = try frameContents(library)
        let expectedBreak: UInt64
        switch how {
        case "edited":
            // The payload of commit 3 says 9 instead of 3, and its frame's checksum is made anew.
            contents[2] = Array(String(decoding: contents[2], as: UTF8.self).replacingOccurrences(of: #"{"i":3}"#, with: #"{"i":9}"#).utf8)
            expectedBreak = 4
        case "removed":
            contents.remove(at: 3)
            expectedBreak = 5
        case "reordered":
            contents.swapAt(2, 3)
            expectedBreak = 4  // the commit at position 4, now third, names the hash of the third
        default:
            // Another library written with the very same commands, ids and times: only the chain differs.
            let other = TemporaryLibrary()
            let otherLog = try other.create()
            let lines = contents.map { String(decoding: $0, as: UTF8.self) }
            try otherLog.write { writer in
                for line in lines.prefix(3) {
                    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
                    let data = try JSONSerialization.data(withJSONObject: object["data"]!)
                    try writer.append(Commit(
                        events: [ProposedEvent(stream: StreamID(rawValue: object["stream"] as! String)!, type: object["type"] as! String, payload: Array(data))],
                        commandID: CommandID(object["command"] as! String)!, actor: object["actor"] as! String, timestamp: Given.epoch))
                }
            }
            contents[2] = try frameContents(other)[2]
            expectedBreak = 3
        }
        try rewrite(library, frames: contents)

        let report = try EventLog.verify(libraryAt: library.path)
        let breaks = report.problems.filter { $0.message.contains("the chain breaks") }
        #expect(breaks.first?.message.contains("the chain breaks at the commit at position \(expectedBreak)") == true, "\(report)")
        if how == "copied" || how == "edited" {
            // Nothing else shows it: positions, versions and checksums are all in order.
            #expect(report.problems.allSatisfy { $0.message.contains("the chain breaks") }, "\(report)")
        }
    }

    @Test("an edit of the last commit changes the head hash that verify reports, which the head record shows")
    func headHash() throws {
        let (library, log) = try chainedLibrary()
        let before = try #require(try log.verify().headHash)
        var contents = try frameContents(library)
        contents[6] = Array(String(decoding: contents[6], as: UTF8.self).replacingOccurrences(of: "\"ana\"", with: "\"bob\"").utf8)
        try rewrite(library, frames: contents)
        let after = try library.open().verify()
        #expect(after.headHash != before)
        // The chain cannot show it (no commit follows); the head record can, and only it.
        #expect(after.problems.map(\.message) == [
            "position 9 holds another commit than the one acknowledged there: it hashes to \(after.headHash!.prefix(8))…, "
                + "where the library's head record (HEAD) recorded \(before.prefix(8))…",
        ])
        try FileManager.default.removeItem(atPath: library.path + "/HEAD")
        #expect(try library.open().verify().isClean)
    }

    @Test("a commit without prev after the chain began is reported; so is a prev that is not a hash")
    func unchainedAfterChain() throws {
        let (library, _) = try chainedLibrary()
        var contents = try frameContents(library)
        let text = String(decoding: contents[4], as: UTF8.self)
        let stripped = text.replacingOccurrences(of: #","prev":"[0-9a-f]{64}""#, with: "", options: .regularExpression)
        contents[4] = Array(stripped.utf8)
        contents[5] = Array(String(decoding: contents[5], as: UTF8.self).replacingOccurrences(
            of: #""prev":"[0-9a-f]{64}""#, with: #""prev":"XYZ""#, options: .regularExpression).utf8)
        try rewrite(library, frames: contents)

        let messages = try library.open().verify().problems.map(\.message)
        #expect(messages.contains { $0.contains("the commit at position 5 carries no prev, though the chain began at position 1") }, "\(messages)")
        #expect(messages.contains { $0.contains("prev is not 64 lowercase hex digits") }, "\(messages)")
    }

    @Test("a library of log format 1 reads as it is, and its first writer chains from its last commit on")
    func upgradeFromFormat1() throws {
        let library = TemporaryLibrary()
        // A format 1 library as an older build left it: FORMAT 1, no ID, commits without prev, a version 1 header.
        try FileManager.default.createDirectory(atPath: library.path + "/log", withIntermediateDirectories: true)
        try library.write(Array("episodic library format 1\n".utf8), to: library.path + "/FORMAT")
        var segment = SegmentHeader(number: 1, firstPosition: LogPosition(1), generation: 0, formatVersion: 1).bytes
        var lastContent: [UInt8] = []
        for i in 1...3 {
            let commit = Given.commit(Given.event("s", "Old", #"{"i":\#(i)}"#), Given.event("t", "Old", #"{"i":\#(i)}"#))
            var content: [UInt8] = []
            for (j, event) in commit.events.enumerated() {
                EnvelopeEncoder(commit: commit).appendLine(
                    for: event, position: LogPosition(UInt64(2 * i - 1 + j)), version: i, previous: nil, to: &content)
            }
            segment += LZ4Frame.compress(content)
            lastContent = content
        }
        try library.write(segment, to: library.segmentPath(1))
        let old = try library.open()
        #expect(try old.events().count == 6)
        let before = try old.verify()
        #expect(before.isClean, "\(before)")
        #expect(before.chainStart == nil)
        #expect(!FileManager.default.fileExists(atPath: library.path + "/ID"), "reading changed the library")

        try Given.appended(2, to: "s", in: try library.open())

        #expect(String(decoding: try library.read(library.path + "/FORMAT"), as: UTF8.self) == "episodic library format \(EventLog.formatVersion)\n")
        #expect(LibraryID(text: String(decoding: try library.read(library.path + "/ID"), as: UTF8.self)) != nil)
        #expect(try previous(in: frameContents(library)[3]) == sha256(lastContent))
        let after = try library.open().verify()
        #expect(after.isClean, "\(after)")
        #expect(after.chainStart == LogPosition(7))
        #expect(after.commits == 5)
    }

    @Test("verify checks FORMAT, ID and every segment header field, reserved word included")
    func headerFields() throws {
        let (library, _) = try chainedLibrary()
        var segment = try library.read(library.segmentPath(1))
        segment[36] = 1  // the reserved word
        try library.write(segment, to: library.segmentPath(1))
        try library.write(Array("episodic library format 2\n\n".utf8), to: library.path + "/FORMAT")
        try FileManager.default.removeItem(atPath: library.path + "/ID")

        let problems = try library.open().verify().problems.map(\.description)
        #expect(problems.contains { $0.hasPrefix("00000001.seg at byte 36: its reserved header word is 1") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("FORMAT at byte 0: holds more than") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("ID at byte 0: is missing") }, "\(problems)")

        // A segment header that claims a newer format than the library's FORMAT.
        try library.write(Array("episodic library format 1\n".utf8), to: library.path + "/FORMAT")
        let older = try library.open().verify().problems.map(\.description)
        #expect(older.contains { $0.contains("its header says log format \(EventLog.formatVersion), but the library's FORMAT says 1") }, "\(older)")
    }

    @Test("verify reports a frame descriptor the log never writes")
    func frameDescriptor() throws {
        let (library, _) = try chainedLibrary()
        let contents = try frameContents(library)
        // The last two frames again, valid LZ4 but not as the writer writes them.
        let header = Array(try library.read(library.segmentPath(1)).prefix(SegmentHeader.size))
        let frames = contents.prefix(5).flatMap { LZ4Frame.compress($0) }
            + Self.frame(contents[5], contentChecksum: false, contentSize: true)
            + Self.frame(contents[6], contentChecksum: true, contentSize: false)
        try library.write(header + frames, to: library.segmentPath(1))
        try FileManager.default.removeItem(atPath: library.path + "/index")

        let problems = try library.open().verify().problems.map(\.message)
        #expect(problems == [
            "its descriptor turns off the content checksum, which the log always writes",
            "its descriptor has no content size, which the log always writes",
        ])
    }

    static func frame(_ content: [UInt8], contentChecksum: Bool, contentSize: Bool) -> [UInt8] {
        var preferences = LZ4F_preferences_t()
        preferences.frameInfo.contentChecksumFlag = contentChecksum ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum
        preferences.frameInfo.contentSize = contentSize ? UInt64(content.count) : 0
        var out = [UInt8](repeating: 0, count: LZ4F_compressFrameBound(content.count, &preferences))
        let written = out.withUnsafeMutableBytes { buffer in
            content.withUnsafeBytes { LZ4F_compressFrame(buffer.baseAddress, buffer.count, $0.baseAddress, $0.count, &preferences) }
        }
        return Array(out.prefix(written))
    }
}
