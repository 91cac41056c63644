import EventLog
import Foundation
import Testing

/// `episodic log`, `history`, `show --as-of`, `undo` and `log verify`, through the built binary.
@Suite("Audit and undo from the command line")
struct AuditCLITests {
    /// A library with a podcast, an episode retitled twice.
    func given() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "One")
        try cli.must("episode", "retitle", "Show/1", "Uno")
        try cli.must("episode", "retitle", "Show/1", "Eins", "--actor", "bob")
        return cli
    }

    @Test("log names podcasts and episodes as people do, and fits a narrow terminal by shortening fields, whole when piped")
    func logNamesAndWidth() throws {
        let cli = try given()
        let lines = try cli.must("log").out.split(separator: "\n").map(String.init)
        #expect(lines[0].contains("  Show  ") && lines[0].contains("PodcastCreated"), "\(lines)")
        #expect(lines[3].contains("  Show/1  ") && !lines[3].contains("episode "), "\(lines)")
        let narrow = try cli.run(["log"], environment: ["COLUMNS": "80"]).out.split(separator: "\n").map(String.init)
        #expect(narrow.count == 4)
        for (line, whole) in zip(narrow, lines) {
            #expect(line.count <= 80, "\(line)")
            // The type and the name stay whole; the command id goes.
            #expect(line.contains("EpisodeRetitled") == whole.contains("EpisodeRetitled"))
            #expect(line.contains("Show"), "\(line)")
        }
        #expect(narrow[3].contains("EpisodeRetitled") && narrow[3].contains("Show/1"), "\(narrow)")
    }

    @Test("history at a narrow terminal shortens both values of a change, keeping the field and the arrow")
    func historyFitsTheWidth() throws {
        let cli = try given()
        let long = "A title long enough to need the whole width of a narrow terminal, and then some more"
        try cli.must("episode", "retitle", "Show/1", long)
        let lines = try cli.run(["history", "Show/1"], environment: ["COLUMNS": "60"]).out.split(separator: "\n").map(String.init)
        let change = try #require(lines.last)
        #expect(change.count <= 60, "\(change)")
        #expect(change.hasPrefix("    episode \"Show/1\" title: \"Eins\" → \"A title long"), "\(change)")
        #expect(change.hasSuffix("…"), "\(change)")
        // Piped, whole (as history words a long title: its first 59 characters)
        #expect(try cli.must("history", "Show/1").out.contains("→ \"" + long.prefix(59) + "…\""))
    }

    @Test("a publish date is said as its calendar day in the reply, history and log; one given with a time as its instant")
    func publishDateWords() throws {
        let cli = try given()
        #expect(try cli.must("episode", "publish-date", "Show/1", "2026-12-24").out.contains("to 2026-12-24\n"))
        #expect(try cli.must("history", "Show/1").out.contains("publish date: none → 2026-12-24"))
        #expect(try cli.must("log", "-n", "1").out.contains("publish date 2026-12-24\n"))
        let timed = try cli.must("episode", "publish-date", "Show/1", "2026-12-24T18:30:00Z").out
        #expect(timed.contains("from 2026-12-24 to 2026-12-24T18:30:00.000Z"), "\(timed)")
    }

    @Test("log: one aligned line per event; --json the envelopes with commandID, --raw as stored; filters")
    func log() throws {
        let cli = try given()
        let lines = try cli.must("log").out.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[3].contains("EpisodeRetitled") && lines[3].contains("title \"Eins\"") && lines[3].contains("bob"))
        let envelopes = try cli.must("log", "--json", "--type", "EpisodeRetitled").jsonLines()
        #expect(envelopes.map { $0["position"] as? Int } == [3, 4])
        #expect((envelopes[1]["data"] as? [String: Any])?["title"] as? String == "Eins")
        #expect(try cli.must("log", "--actor", "bob").out.split(separator: "\n").count == 1)
        #expect(try cli.must("log", "--episode", "Show/1", "--since", "4").out.split(separator: "\n").count == 1)
        let bad = try cli.run("log", "--since", "last week")
        #expect(bad.status == 65 && bad.err.contains("not a date or time"))
        // One key for the command id in every result: the outcome's, and the log's.
        let retitled = try cli.object("episode", "retitle", "Show/1", "Drei", "--json")
        let logged = try cli.must("log", "--json", "-n", "1").jsonLines()[0]
        #expect(logged["commandID"] as? String == retitled["commandID"] as? String && logged["command"] == nil)
        let raw = try cli.must("log", "--raw", "-n", "1").out
        #expect(raw.contains(#""command":""# + (retitled["commandID"] as! String)) && !raw.contains("commandID"))
    }

    @Test("log --follow prints events as other processes append them")
    func follow() throws {
        let cli = try given()
        let follower = try cli.start(["log", "--follow", "--since", "5"])
        try cli.must("episode", "retitle", "Show/1", "Followed")
        var printed = ""
        Self.read(follower, until: "Followed", into: &printed)
        Self.stop(follower)
        #expect(printed.contains("title \"Followed\""))
    }

    /// Adds what a `log --follow` prints to `printed` until it holds `text` (or 5 s passed). The
    /// follower looks every 200 ms.
    private static func read(_ follower: CLI.Running, until text: String, into printed: inout String) {
        let handle = follower.out.fileHandleForReading
        for _ in 0..<50 where !printed.contains(text) {
            var ready = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 100) > 0 { printed += String(decoding: handle.availableData, as: UTF8.self) }
        }
    }

    /// SIGKILL stops a follower: a child of the test runner may inherit a mask that blocks SIGTERM.
    private static func stop(_ follower: CLI.Running) {
        kill(follower.process.processIdentifier, SIGKILL)
        _ = follower.finish()
    }

    @Test("log --follow -n 2 starts two events back, then prints what comes; history -n keeps the newest commands")
    func followFromBack() throws {
        // Given four events
        let cli = try given()
        #expect(try cli.head() == 4)

        // When the log is followed from two back, and one more event is appended once those are printed
        let follower = try cli.start(["log", "--follow", "-n", "2"])
        var printed = ""
        Self.read(follower, until: "Eins", into: &printed)
        try cli.must("episode", "retitle", "Show/1", "Followed")
        Self.read(follower, until: "Followed", into: &printed)
        Self.stop(follower)

        // Then positions 3, 4 and 5 are printed, in order, and nothing before them
        let positions = printed.split(separator: "\n").compactMap { Int($0.split(separator: " ").first ?? "") }
        #expect(positions == [3, 4, 5], "\(printed)")
        let newest = try cli.must("history", "Show/1", "-n", "1").out
        #expect(newest.split(separator: "\n").count == 2 && newest.contains("title: \"Eins\" → \"Followed\""), "\(newest)")
    }

    @Test("undo: refuses over a later change and lists it; --dry-run appends nothing; --last; redo")
    func undo() throws {
        let cli = try given()
        let events = try EventLog(at: cli.library).events()
        let firstRetitle = events[2].commandID.description
        let refused = try cli.run("undo", firstRetitle)
        #expect(refused.status == 65)
        #expect(refused.err.contains(events[3].commandID.description.prefix(8)) && refused.err.contains("by bob"))
        // The later command's time on the local clock, with its offset, as every time for people is.
        let local = try cli.run(["undo", firstRetitle], environment: ["TZ": "Asia/Kolkata"])
        #expect(local.err.contains(" +05:30 changed title of "), "\(local.err)")
        #expect(refused.err.contains("give --force"))

        let dry = try cli.must("undo", "--last", "--dry-run").out
        #expect(dry.hasPrefix("Would undo: retitled episode \"Show/1\"") && dry.contains("would append EpisodeRetitled"))
        #expect(try cli.head() == 4)

        let nobody = try cli.run("undo", "--last", "--by", "nobody")
        #expect(nobody.status == 65 && nobody.err.contains("no command by nobody"))
        let undone = try cli.object("undo", "--last", "--by", "bob")
        #expect(undone["undoes"] as? String == events[3].commandID.description)
        #expect(try cli.object("episode", "show", "Show/1")["title"] as? String == "Uno")
        let redo = try cli.object("undo", (undone["outcome"] as! [String: Any])["commandID"] as! String)
        #expect(redo["events"] as? [String] == ["EpisodeRetitled"])
        #expect(try cli.object("episode", "show", "Show/1")["title"] as? String == "Eins")
        let history = try cli.must("history", "Show/1").out
        #expect(history.contains("title: \"Uno\" → \"Eins\""))
        #expect(history.contains("undoing"))
    }

    @Test("show --as-of: the episode as it was at a position and at a time, named as it then was")
    func asOf() throws {
        let cli = try given()
        let atThree = try cli.object("show", "Show/1", "--as-of", "3")
        #expect(atThree["state"] as? String == "live")
        #expect((atThree["episode"] as? [String: Any])?["title"] as? String == "Uno")
        let before = try cli.object("show", "Show/1", "--as-of", "1")
        #expect(before["state"] as? String == "none")
        let time = try EventLog(at: cli.library).events()[1].timestamp.text
        let atTime = try cli.object("show", "Show", "--as-of", time)
        #expect((atTime["episodes"] as? [[String: Any]])?.map { $0["title"] as? String } == ["One"])

        // The episode is named by its podcast's name as it then was, not as it is now.
        try cli.must("podcast", "rename", "Show", "Late Show")
        #expect(try cli.must("show", "Late Show/1", "--as-of", "3").out.hasPrefix("episode \"Show/1\" at position 3"))
        #expect(try cli.must("show", "Late Show/1").out.hasPrefix("episode \"Late Show/1\" at position 5"))
    }

    @Test("log verify: clean exits 0; a damaged blob exits 74 with a report")
    func verify() throws {
        let cli = try given()
        try cli.must("transcript", "import", "Show/1", Fixtures.path("zencastr-excerpt.txt"))
        let clean = try cli.must("log", "verify").out
        #expect(clean.contains("all good") && clean.contains("identical to a replay"))
        let blobs = try FileManager.default.subpathsOfDirectory(atPath: cli.library + "/blobs").filter { $0.count > 60 }
        let blob = cli.library + "/blobs/" + (try #require(blobs.first))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: blob))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: blob))
        let damaged = try cli.run("log", "verify")
        #expect(damaged.status == 74)
        #expect(damaged.out.contains("problem"))
        let json = try cli.run("log", "verify", "--json")
        #expect(json.status == 74)
        #expect((try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])?["clean"] as? Bool == false)
    }

    @Test("log verify: a kept fold of a long stream that is not the log's is reported (exit 74, keptFoldProblems) and removed")
    func verifyKeptFold() throws {
        // Given a podcast described 70 times, whose stream the next command on it folds and keeps
        let cli = try given()
        let descriptions = (1...70).map { #"{"command":"podcast.describe","podcast":"Show","description":"Take \#($0)"}"# }
        try cli.must("submit", input: descriptions.joined(separator: "\n") + "\n")
        try cli.must("podcast", "describe", "Show", "Take 71")
        let snapshots = try EventLog(at: cli.library).snapshots
        let (stream, kept) = try #require(snapshots.all().first)
        #expect(stream.rawValue.hasPrefix("podcast-"))
        #expect(try cli.object("log", "verify", "--json")["keptFoldProblems"] as? [String] == [])

        // When its state is changed, as only a forgery or a build whose evolve changed could
        var forged = kept
        forged.state = Array(String(decoding: kept.state, as: UTF8.self).replacingOccurrences(of: "\"Show\"", with: "\"Wohs\"").utf8)
        #expect(forged.state != kept.state)
        snapshots.keep(forged, of: stream)

        // Then verify names it, exits 74, and removes it; the next verify is clean
        let json = try cli.run("log", "verify", "--json")
        #expect(json.status == 74)
        let problems = (try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])?["keptFoldProblems"] as? [String]
        #expect(problems?.count == 1 && problems?.first?.contains(stream.rawValue) == true, "\(json.out)")
        #expect(snapshots.all().isEmpty)
        let clean = try cli.run("log", "verify")
        #expect(clean.status == 0, "\(clean.out)")
        #expect(!clean.out.contains("kept folds"))
    }
}
