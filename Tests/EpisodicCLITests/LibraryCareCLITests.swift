import Foundation
import Testing

/// `episodic info` says what a library is and holds without changing it; `episodic log compact`
/// recompresses sealed segments and nothing else, leaving every event as it was.
@Suite("Library care: info and log compact")
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

    static func count(_ info: [String: Any], _ key: String) -> (live: Int?, deleted: Int?) {
        let count = info[key] as? [String: Any]
        return (count?["live"] as? Int, count?["deleted"] as? Int)
    }

    @Test("info on a new library: no events, no segment, read models current at 0, never backed up")
    func fresh() throws {
        let cli = CLI()
        try cli.must("init")
        let info = try cli.object("info")
        #expect(info["location"] as? String == cli.library)
        #expect(info["shared"] == nil)
        #expect(info["formatVersion"] as? Int == 3)
        #expect(info["head"] as? Int == 0)
        #expect(info["events"] as? Int == 0)
        #expect(info["segments"] as? [String: Int] == ["count": 0, "sealed": 0, "compacted": 0])
        #expect(Self.count(info, "podcasts") == (0, 0))
        #expect(Self.count(info, "episodes") == (0, 0))
        #expect(info["fonts"] as? Int == 0)
        #expect(info["lastBackup"] == nil)
        let projections = try #require(info["projections"] as? [[String: Any]])
        #expect(projections.map { $0["name"] as? String } == ["sidebar", "episode-detail", "search", "states"])
        #expect(projections.allSatisfy { $0["checkpoint"] as? Int == 0 && $0["current"] as? Bool == true })

        let text = try cli.must("info").out
        #expect(text.contains("location:    \(cli.library)\n"), "\(text)")
        #expect(text.contains("kind:        a library of its own\n"), "\(text)")
        #expect(text.contains("head:        no events yet\n"), "\(text)")
        #expect(text.contains("last backup: never\n"), "\(text)")
    }

    @Test("info counts live and deleted podcasts and episodes from the log, sizes the files, and names the last backup")
    func afterCommands() throws {
        let cli = try library()
        var info = try cli.object("info")
        #expect(info["head"] as? Int == 9)
        #expect(info["events"] as? Int == 9)
        #expect(Self.count(info, "podcasts") == (1, 1))
        // The deleted podcast took its episode with it.
        #expect(Self.count(info, "episodes") == (2, 2))
        #expect(try cli.must("info").out.contains("podcasts:    1 (1 deleted)\nepisodes:    2 (2 deleted)\n"))

        // Undo brings the podcast and its episode back: the counts follow the log's restorations.
        try cli.must("undo", "--last")
        info = try cli.object("info")
        #expect(Self.count(info, "podcasts") == (2, 0))
        #expect(Self.count(info, "episodes") == (3, 1))

        try cli.must("font", "import", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "--name", "Title")
        let head = try cli.head()
        info = try cli.object("info")
        #expect(info["head"] as? Int == head)
        #expect(info["fonts"] as? Int == 1)
        #expect(info["segments"] as? [String: Int] == ["count": 1, "sealed": 0, "compacted": 0])
        let bytes = try #require(info["bytes"] as? [String: Int])
        let segment = try #require(FileManager.default.attributesOfItem(atPath: cli.library + "/log/00000001.seg")[.size] as? Int)
        #expect(bytes["log"] == segment)
        #expect(bytes["blobs"]! > 100_000, "the font is a blob: \(bytes)")
        #expect(bytes["readModels"]! > 0 && bytes["index"]! > 0 && bytes["quarantine"] == 0)
        #expect(bytes["total"] == ["log", "index", "blobs", "readModels", "quarantine", "other"].map { bytes[$0]! }.reduce(0, +))
        #expect((info["projections"] as? [[String: Any]])?.allSatisfy { $0["checkpoint"] as? Int == head } == true)

        // A backup is noted in the library, outside the log, and info names it.
        try cli.must("backup", "night.tar")
        #expect(try cli.head() == head)
        info = try cli.object("info")
        let backup = try #require(info["lastBackup"] as? [String: Any])
        #expect(backup["archive"] as? String == cli.folder + "/night.tar")
        #expect(backup["head"] as? Int == head)
        let archiveBytes = try #require(FileManager.default.attributesOfItem(atPath: cli.folder + "/night.tar")[.size] as? Int)
        #expect(backup["bytes"] as? Int == archiveBytes)
        #expect((backup["time"] as? String)?.count == 24)
        try cli.must("episode", "create", "Night Shift", "Fourth")
        let text = try cli.must("info", "--utc").out
        let time = try #require(backup["time"] as? String)
        #expect(text.contains("last backup: \(time.prefix(10)) \(time.dropFirst(11).prefix(8)) UTC to \(cli.folder)/night.tar"), "\(text)")
        // In a zone of its own, the same instant on that zone's clock, with its offset.
        #expect(try cli.run(["info"], environment: ["TZ": "Asia/Kolkata"]).out.contains(" +05:30 to \(cli.folder)/night.tar"))
        #expect(text.contains("through position \(head) (1 event since)"), "\(text)")
        // The note is not part of a backup: a library restored from one was never backed up itself.
        #expect(try cli.run(["restore", cli.folder + "/night.tar", "--library", cli.folder + "/restored"]).status == 0)
        #expect(try cli.run(["info", "--library", cli.folder + "/restored"]).out.contains("last backup: never\n"))
    }

    @Test("info only reads: read models behind the log stay behind, and the log, index, blobs and top files are untouched")
    func onlyReads() throws {
        let cli = try library()
        let podcast = try #require(try cli.list("podcast", "list").first?["id"] as? String)
        try LibraryFiles.appendUnprojectedRename(library: cli.library, podcast: podcast, to: "Day Shift")
        // SQLite bumps its files' change counters whenever a command opens them; a read-only library, where
        // not a byte may change, is ReadOnlyLibraryTests' to check, with info among its readers.
        func files() throws -> [String: Data] { try LibraryFiles.snapshot(cli.library).filter { !$0.key.hasPrefix("read") } }
        let before = try files()
        let run = try cli.run(["info", "--json"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.isEmpty, "\(run.err)")
        let info = try #require(try run.json() as? [String: Any])
        let projections = try #require(info["projections"] as? [[String: Any]])
        #expect(projections.allSatisfy { $0["eventsBehind"] as? Int == 1 && $0["current"] as? Bool == false })
        #expect(try cli.run("info").out.contains("sidebar: schema 4, at position \(info["head"] as! Int - 1), 1 event behind"))
        #expect(try files() == before)
    }

    @Test("info with no library exits 66, as JSON too")
    func noLibrary() throws {
        let cli = CLI()
        let run = try cli.run("info")
        #expect(run.status == 66)
        #expect(run.err.contains("no library at \(cli.library)"), "\(run.err)")
        let json = try cli.run(["info", "--json"])
        #expect(json.status == 66)
        #expect(json.err.contains(#""kind":"missing""#), "\(json.err)")
        #expect(!FileManager.default.fileExists(atPath: cli.library))
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
        #expect(try cli.object("info")["segments"] as? [String: Int] == ["count": sealed + 1, "sealed": sealed, "compacted": sealed])

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

    @Test("log compact is a writer: it sets aside a torn tail first, and says so; a held lock makes it wait, then exit 75")
    func asAWriter() throws {
        let cli = try library()
        let segment = cli.library + "/log/00000001.seg"
        let clean = try #require(FileManager.default.contents(atPath: segment))
        let handle = try #require(FileHandle(forWritingAtPath: segment))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x04, 0x22, 0x4D, 0x18, 0x64, 0x40]))  // a frame's start, cut short
        try handle.close()
        let run = try cli.run("log", "compact")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.contains("set aside 6 bytes"), "\(run.err)")
        #expect(FileManager.default.contents(atPath: segment) == clean)

        let fd = open(cli.library + "/LOCK", O_RDWR)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        let blocked = try cli.run("log", "compact", "--lock-timeout", "0.2")
        #expect(blocked.status == 75, "\(blocked.err)")
        #expect(blocked.err.contains("locked"), "\(blocked.err)")
    }

    @Test("log compact refuses a level outside 3 to 12 as a usage error, before touching the library")
    func levels() throws {
        let cli = try library()
        // But SQLite's shared-memory indexes, which any reader rewrites: the read models are opened
        // while the command line is parsed.
        func files() throws -> [String: Data] { try LibraryFiles.snapshot(cli.library).filter { !$0.key.hasSuffix("-shm") } }
        let before = try files()
        for level in ["99", "2", "0", "nine"] {
            let run = try cli.run("log", "compact", "--level", level)
            #expect(run.status == 64, "\(level): \(run.err)")
            #expect(run.err.contains("give a whole number from 3 to 12"), "\(run.err)")
        }
        #expect(try cli.run(["log", "compact", "--level", "99", "--json"]).err.contains(#""kind":"usage""#))
        #expect(try files() == before)
    }

    @Test("the side of a shared library: info names the server without a password; log compact compacts this machine's copy offline")
    func sharedSide() throws {
        let cli = CLI()
        try cli.must("init", "--library", cli.folder + "/one")
        let script = (1...60).map { #"{"command":"podcast.create","name":"Show \#($0)"}"# }.joined(separator: "\n") + "\n"
        #expect(try cli.run(["submit", "--library", cli.folder + "/one"], input: script).status == 0)
        try LibraryFiles.resegmented(cli.folder + "/one", into: cli.library, segmentBytes: 4 << 10)
        // No server answers there: nothing below may need one.
        try #"{"schema":"team","url":"postgres://ana:secret@127.0.0.1:1/podcasts"}"#
            .write(toFile: cli.library + "/SHARED", atomically: true, encoding: .utf8)
        let list = try cli.must("log", "list", "--json").out

        let info = try cli.run("info")
        #expect(info.status == 0, "\(info.err)")
        #expect(info.out.contains("kind:        the side of a shared library on postgres://ana@127.0.0.1:1/podcasts (schema team)"), "\(info.out)")
        #expect(!info.out.contains("secret") && !info.err.contains("secret"))
        #expect(try cli.object("info")["shared"] as? String == "postgres://ana@127.0.0.1:1/podcasts (schema team)")

        let report = try cli.object("log", "compact")
        #expect((report["segmentsCompacted"] as? Int ?? 0) > 0, "\(report)")
        #expect(try cli.must("log", "list", "--json").out == list)
    }
}
