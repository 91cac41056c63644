import EventLog
import Foundation
import TestSupport
import Testing

/// `episodic submit`: scripts of commands as JSON Lines, one result line per command.
@Suite("Submitting scripts")
struct SubmitTests {
    static let script = """
        {"command":"podcast.create","name":"Scripted","id":"6f1c1d2e-0000-4000-8000-00000000000a"}
        {"command":"episode.create","podcast":"Scripted","title":"One"}
        {"command":"episode.create","podcast":"Scripted","title":"Two","number":5,"publishDate":"2026-05-01T00:00:00.000Z"}
        {"command":"transcript.import","episode":"Scripted/1","text":"00:00:01\\nAnn\\nHello there.\\n\\n00:00:04\\nBob\\nHi Ann.\\n"}
        {"command":"transcript.convert","episode":"Scripted/1"}
        {"command":"thumbnail.settings","episode":"Scripted/5","settings":{"fontSize":96,"fontColorHex":"#ffcc00"}}
        {"command":"episode.retitle","episode":"Scripted/5","title":"Two"}

        """

    @Test("each command is its own commit, and each gets a result line")
    func eachItsOwnCommit() throws {
        let cli = CLI()
        try cli.must("init")
        let lines = try cli.must("submit", "--json", input: Self.script).jsonLines()
        #expect(lines.map { $0["command"] as? String } == [
            "podcast.create", "episode.create", "episode.create", "transcript.import", "transcript.convert",
            "thumbnail.settings", "episode.retitle",
        ])
        #expect(lines[0]["created"] as? String == "6f1c1d2e-0000-4000-8000-00000000000a")
        #expect(Set(lines.map { $0["commandID"] as! String }).count == 7)
        // The last command changed nothing: no events, no positions.
        #expect(lines[6]["events"] as? [String] == [])
        #expect(lines[6]["positions"] == nil)
        #expect(lines.dropLast().map { ($0["positions"] as! [String: Int])["first"] } == [1, 2, 3, 4, 5, 6])

        let episode = try cli.object("episode", "show", "Scripted/5")
        #expect((episode["thumbnailSettings"] as! [String: Any])["fontSize"] as? Double == 96)
        #expect((episode["thumbnailSettings"] as! [String: Any])["fontColorHex"] as? String == "#FFCC00")
        #expect(try cli.must("transcript", "export", "Scripted/1").out.contains("Hello there."))
    }

    @Test("--atomic puts every command in one commit, and a later command sees what an earlier one did")
    func atomic() throws {
        let cli = CLI()
        try cli.must("init")
        let lines = try cli.must("submit", "--atomic", "--json", input: Self.script).jsonLines()
        #expect(Set(lines.map { $0["commandID"] as! String }).count == 1)
        let events = try EventLog(at: cli.library).events()
        #expect(events.count == 6)
        #expect(Set(events.map(\.commandID)).count == 1)
        #expect(lines[4]["positions"] as? [String: Int] == ["first": 5, "last": 5])
        #expect(try cli.list("episode", "list", "Scripted").map { $0["hasSRT"] as? Bool } == [false, true])
    }

    @Test("a refusal stops the script; --keep-going goes on; the exit code is the first refusal's")
    func refusals() throws {
        let cli = CLI()
        try cli.must("init")
        let script = """
            {"command":"podcast.create","name":"A"}
            {"command":"podcast.create","name":"a"}
            {"command":"podcast.create","name":"B"}

            """
        let stopped = try cli.run(["submit", "--json"], input: script)
        #expect(stopped.status == 65)
        #expect(try stopped.jsonLines().map { $0["command"] as? String } == ["podcast.create", "podcast.create"])
        #expect(try stopped.jsonLines()[1]["index"] as? Int == 1)
        #expect(try stopped.jsonLines()[1]["line"] as? Int == 2)
        // Under --json the refusal is its result line, and is not said again on stderr.
        #expect(stopped.err.isEmpty)
        #expect(try cli.list("podcast", "list").map { $0["name"] as? String } == ["A"])

        // Without --json: a result line per command done, the refusal once on stderr with its line
        // (blank lines count, as in an editor and in the errors of lines that cannot be read).
        let goingOn = try cli.run(["submit", "--keep-going"], input: "\n" + script.replacingOccurrences(of: "\"A\"", with: "\"C\""))
        #expect(goingOn.status == 65)
        let said = goingOn.out.split(separator: "\n")
        #expect(said.count == 3)
        #expect(said.last?.hasPrefix("Ran 2 of 3 commands: 2 events at positions 2–3; 1 refused, in ") == true, "\(goingOn.out)")
        #expect(goingOn.err.split(separator: "\n").filter { $0.hasPrefix("error: line 3 (podcast.create): a podcast named") }.count == 1)
        #expect(!goingOn.out.contains("a podcast named"), "the refusal is said on stderr alone")
        #expect(Set(try cli.list("podcast", "list").map { $0["name"] as! String }) == ["A", "B", "C"])
    }

    @Test("--keep-going goes on past refusals only: an unreadable blob stops the batch, exit 74, as the exit code says")
    func keepGoingStopsAtDamage() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("submit", input: """
            {"command":"podcast.create","name":"Show"}
            {"command":"episode.create","podcast":"Show","title":"One"}
            {"command":"transcript.import","episode":"Show/1","text":"00:00:01\\nAnn\\nHello there.\\n"}

            """)
        // The transcript's blob is lost: converting it needs the blob, so the library, not the command, is at fault.
        let blobs = try FileManager.default.subpathsOfDirectory(atPath: cli.library + "/blobs").filter { $0.count > 60 }
        try FileManager.default.removeItem(atPath: cli.library + "/blobs/" + (try #require(blobs.first)))
        let run = try cli.run(["submit", "--keep-going", "--json"], input: """
            {"command":"transcript.convert","episode":"Show/1"}
            {"command":"podcast.create","name":"After"}

            """)
        #expect(run.status == 74, "\(run.err)")
        let lines = try run.jsonLines()
        #expect(lines.count == 1)
        #expect((lines.first?["error"] as? [String: Any])?["kind"] as? String == "damaged")
        #expect(try cli.list("podcast", "list").map { $0["name"] as? String } == ["Show"])
    }

    @Test("a summary ends the output; an empty script says so and writes nothing; --list-commands needs no schema files")
    func summaryAndCommands() throws {
        let cli = CLI()
        try cli.must("init")
        // Given a script of three commands, one of which changes nothing
        let ran = try cli.must("submit", input: """
            {"command":"podcast.create","name":"Show"}
            {"command":"episode.create","podcast":"Show","title":"One"}
            {"command":"episode.retitle","episode":"Show/1","title":"One"}

            """).out.split(separator: "\n")
        #expect(ran.count == 4)
        #expect(ran[3].hasPrefix("Ran 2 of 3 commands: 2 events at positions 1–2; 1 changed nothing, in "), "\(ran)")
        #expect(ran[3].hasSuffix(" s."))
        // --json keeps to one result line per command
        #expect(try cli.must("submit", "--json", input: #"{"command":"episode.retitle","episode":"Show/1","title":"Two"}"#).jsonLines().count == 1)

        // An empty script: said on stderr, exit 0, nothing written
        let head = try EventLog(at: cli.library).head
        let empty = try cli.run(["submit"], input: "\n  \n")
        #expect(empty.status == 0 && empty.out.isEmpty && empty.err.contains("The script holds no commands"), "\(empty.err)")
        #expect(try EventLog(at: cli.library).head == head)

        // Every command, with its fields, for a user with only the binary
        let listed = try cli.must("submit", "--list-commands").out.split(separator: "\n").map(String.init)
        #expect(listed.contains { $0.hasPrefix("episode.create ") && $0.hasSuffix("podcast title [number] [publishDate] [description] [id]") }, "\(listed)")
        let objects = try cli.must("submit", "--list-commands", "--json").jsonLines()
        #expect(objects.count == listed.count && objects.count > 20)
        let retitle = try #require(objects.first { $0["name"] as? String == "episode.retitle" })
        #expect(retitle["required"] as? [String] == ["episode", "title"] && retitle["optional"] as? [String] == [])
        #expect(try cli.run(["submit", "--list-commands", "x.jsonl"]).status == 64)
        // A missing field points there
        let missing = try cli.run(["submit"], input: #"{"command":"episode.retitle","episode":"Show/1"}"#)
        #expect(missing.status == 65 && missing.err.contains("`episodic submit --list-commands`"), "\(missing.err)")
    }

    @Test("a script is read from a file, and names transcripts by path")
    func fromFile() throws {
        let cli = CLI()
        try cli.must("init")
        let script = try cli.write("""
            {"command":"podcast.create","name":"Filed"}
            {"command":"episode.create","podcast":"Filed","title":"One"}
            {"command":"transcript.import","episode":"Filed/1","file":"\(Fixtures.path("time-range-sample.txt"))"}

            """, to: "script.jsonl")
        try cli.must("submit", script)
        #expect(try cli.list("episode", "list", "Filed").first?["hasTranscript"] as? Bool == true)
    }

    @Test("--sync-each syncs every command to disk on its own, where a group shares its syncs; both give the same results")
    func syncEach() throws {
        // Given two libraries with a podcast, and a script of 40 episodes, each run under strace, which
        // counts every fsync and fdatasync of the process and its threads
        let strace = "/usr/bin/strace"
        guard try Need.met(FileManager.default.isExecutableFile(atPath: strace), "counting syncs needs strace (apt-get install strace)") else { return }
        let script = (1...40).map { #"{"command":"episode.create","podcast":"Show","title":"Episode \#($0)"}"# }.joined(separator: "\n")
        func syncs(_ extra: [String]) throws -> (count: Int, lines: [[String: Any]]) {
            let cli = CLI()
            try cli.must("init")
            try cli.must("podcast", "create", "Show")
            let counts = cli.folder + "/syscalls"
            cli.runAs = [strace, "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", counts]
            let run = try cli.run(["submit", "--json"] + extra, input: script)
            #expect(run.status == 0, "\(run.err)")
            // strace -c's table: "% time  seconds  usecs/call  calls  [errors]  syscall", a row per call.
            let table = try String(contentsOfFile: counts, encoding: .utf8)
            let count = table.split(separator: "\n").compactMap { row -> Int? in
                let columns = row.split(separator: " ")
                guard let name = columns.last, ["fsync", "fdatasync"].contains(name), columns.count >= 5 else { return nil }
                return Int(columns[3])
            }.reduce(0, +)
            return (count, try run.jsonLines())
        }

        // When the script is submitted as it is, and with --sync-each
        let grouped = try syncs([])
        let each = try syncs(["--sync-each"])

        // Then every command is its own commit either way, with the same results; with --sync-each the
        // log is synced at least once a command, and in one group far fewer times than that
        #expect(grouped.lines.map { $0["positions"] as? [String: Int] } == each.lines.map { $0["positions"] as? [String: Int] })
        #expect(each.lines.count == 40)
        #expect(each.count >= 40, "\(each.count) syncs for 40 commands with --sync-each")
        #expect(grouped.count < 10, "\(grouped.count) syncs for 40 commands in one group")

        // And an atomic batch, one commit, cannot be synced command by command
        let cli = CLI()
        try cli.must("init")
        let refused = try cli.run(["submit", "--atomic", "--sync-each"], input: script)
        #expect(refused.status == 64)
        #expect(refused.err.contains("--atomic and --sync-each cannot be given together"), "\(refused.err)")
    }
}
