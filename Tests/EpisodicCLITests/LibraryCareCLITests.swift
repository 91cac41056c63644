import Foundation
import Testing

/// `episodic log compact` recompresses sealed segments and nothing else, leaving every event as it was.
@Suite("Library care: log compact")
struct LibraryCareCLITests {
    /// A podcast with three episodes, one deleted, and a deleted podcast with an episode of its own.
    func library() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        for title in ["Pilot", "Second", "Third"] { try cli.must("episode", "create", "Night Shift", title) }
        try cli.must("episode", "delete", "Night Shift/2")
        try cli.must("podcast", "create", "Cancelled")
        try cli.must("episode", "create", "Cancelled", "Never aired")
        try cli.must("podcast", "delete", "Cancelled")
        return cli
    }

    @Test("log compact with one segment, still being written: nothing to compact, exit 0, the log unchanged")
    func oneSegment() throws {
        let cli = try library()
        let before = try LibraryFiles.segments(cli.library)
        let run = try cli.must("log", "compact")
        #expect(run.out.hasPrefix("Nothing to compact: the log has one segment, which is still being written"), "\(run.out)")
        let report = try cli.object("log", "compact")
        #expect(report.keys.sorted() == ["bytesAfter", "bytesBefore", "jsonBytes", "ratio", "segmentsCompacted"])
        #expect(report.values.allSatisfy { ($0 as? NSNumber)?.doubleValue == 0 }, "\(report)")
        #expect(try LibraryFiles.segments(cli.library) == before)
        #expect(try cli.run("log", "verify").status == 0)
    }

    @Test("log compact rewrites the sealed segments smaller; every event, the chain and the last segment stay as they were")
    func severalSegments() throws {
        let cli = CLI()
        try cli.must("init", "--library", cli.folder + "/one")
        var script = [#"{"command":"podcast.create","name":"Night Shift"}"#]
        for n in 1...120 {
            script.append(#"{"command":"episode.create","podcast":"Night Shift","title":"Episode \#(n) of the night"}"#)
            script.append(#"{"command":"episode.describe","episode":"Night Shift/\#(n)","description":"Calls from listeners, \#(n)."}"#)
        }
        let submitted = try cli.run(["submit", "--library", cli.folder + "/one"], input: script.joined(separator: "\n") + "\n")
        #expect(submitted.status == 0, "\(submitted.err)")
        try LibraryFiles.resegmented(cli.folder + "/one", into: cli.library, segmentBytes: 8 << 10)

        let files = try LibraryFiles.segments(cli.library)
        let last = files.keys.max()!
        let sealed = files.count - 1
        #expect(sealed >= 5, "\(files.keys.sorted())")
        let list = try cli.must("log", "list", "--json").out
        let podcastHistory = try cli.must("log", "list", "--podcast", "Night Shift").out
        let chain = try Self.chainLine(cli)

        let report = try cli.object("log", "compact")
        #expect(report["segmentsCompacted"] as? Int == sealed)
        let before = try #require(report["bytesBefore"] as? Int), after = try #require(report["bytesAfter"] as? Int)
        #expect(before == files.filter { $0.key != last }.values.map(\.count).reduce(0, +))
        let compacted = try LibraryFiles.segments(cli.library)
        #expect(after == compacted.filter { $0.key != last }.values.map(\.count).reduce(0, +))
        #expect(after * 2 < before, "before \(before), after \(after)")
        let ratio = try #require(report["ratio"] as? Double)
        #expect(ratio > 2 && abs(ratio - Double(report["jsonBytes"] as! Int) / Double(after)) < 0.01, "\(report)")
        #expect(compacted[last] == files[last])

        #expect(try cli.must("log", "list", "--json").out == list)
        #expect(try cli.must("log", "list", "--podcast", "Night Shift").out == podcastHistory)
        #expect(try Self.chainLine(cli) == chain)

        // Done once; --all does it again, here at another level.
        let again = try cli.must("log", "compact").out
        #expect(again.hasPrefix("Nothing to compact: its \(sealed) sealed segments are compacted already; --all compacts them again."), "\(again)")
        let text = try cli.must("log", "compact", "--all", "--level", "12").out
        #expect(text.hasPrefix("Compacted \(sealed) segments: "), "\(text)")
        #expect(text.contains("x smaller than their JSON"), "\(text)")
        #expect(try cli.must("log", "list", "--json").out == list)
        #expect(try cli.run("log", "verify").status == 0)
        // Commands go on appending after it.
        try cli.must("episode", "create", "Night Shift", "After")
        #expect(try cli.head() == 242)
    }

    /// What `log verify` says of the hash chain (its last commit's hash), once it found the log all good.
    static func chainLine(_ cli: CLI) throws -> String {
        let lines = try cli.must("log", "verify").out.split(separator: "\n")
        #expect(lines.first?.hasSuffix("all good") == true, "\(lines)")
        return String(lines.first { $0.hasPrefix("chain:") } ?? "")
    }

    @Test("log compact refuses a level outside 3 to 12 as a usage error, before touching the library")
    func levels() throws {
        let cli = try library()
        let before = try LibraryFiles.snapshot(cli.library)
        for level in ["99", "2", "0", "nine"] {
            let run = try cli.run("log", "compact", "--level", level)
            #expect(run.status == 64, "\(level): \(run.err)")
            #expect(run.err.contains("give a whole number from 3 to 12"), "\(run.err)")
        }
        #expect(try cli.run(["log", "compact", "--level", "99", "--json"]).err.contains(#""kind":"usage""#))
        #expect(try LibraryFiles.snapshot(cli.library) == before)
    }

}
