import Foundation
import Testing

/// What a script reads: usage errors as JSON, a JSON result for exports, content to standard output,
/// and the stored transcript.
@Suite("Output scripts can trust")
struct ScriptOutputTests {
    @Test("Under --json a usage error is a JSON error on stderr, exit 64, before or after the subcommand")
    func usageErrorsAsJSON() throws {
        let cli = CLI()
        try cli.must("init")
        for arguments in [["--json", "podcast", "list", "--bogus"], ["podcast", "list", "--bogus", "--json"]] {
            let run = try cli.run(arguments)
            #expect(run.status == 64)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.err.utf8)) as? [String: Any])
            let error = try #require(object["error"] as? [String: Any])
            #expect(error["kind"] as? String == "usage")
            #expect((error["message"] as? String)?.contains("--bogus") == true)
        }
    }

    @Test("A usage error found while the command runs is one JSON object on stderr, not two")
    func oneObjectPerError() throws {
        let cli = CLI()
        try cli.must("init")
        let run = try cli.run(["projections", "rebuild", "serch", "--json"])
        #expect(run.status == 64)
        let lines = run.err.split(separator: "\n")
        #expect(lines.count == 1, "\(run.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect((object["error"] as? [String: Any])?["message"] as? String == "there is no projector named serch. Did you mean search? Known: sidebar, episode-detail, search, states.")
    }

    @Test("Exports to a file print a JSON result under --json; to standard output the content is the output")
    func exports() throws {
        // Given an episode with subtitles and a background
        let cli = try ThumbnailCLITests.showWithBackground()
        try cli.must("transcript", "import", "Show/1", Fixtures.path("zencastr-excerpt.txt"))
        try cli.must("transcript", "convert", "Show/1")

        // When they are exported to files and to standard output
        let subtitles = try cli.object("transcript", "export", "Show/1", "subs.vtt", "--json")
        let thumbnail = try cli.object("thumbnail", "export", "Show/1", "thumb.jpg", "--json")
        let png = try cli.run(["thumbnail", "export", "Show/1", "-", "--format", "png"])
        let vtt = try cli.must("transcript", "export", "Show/1", "-", "--format", "vtt", "--json").out

        // Then each file's result says what was written, and standard output holds the content alone
        #expect(subtitles["command"] as? String == "transcript.export" && subtitles["format"] as? String == "vtt")
        #expect(subtitles["bytes"] as? Int == (try Data(contentsOf: URL(fileURLWithPath: cli.folder + "/subs.vtt"))).count)
        #expect(subtitles["outdated"] as? Bool == false)
        #expect(thumbnail["format"] as? String == "jpeg")
        #expect(thumbnail["bytes"] as? Int == (try Data(contentsOf: URL(fileURLWithPath: cli.folder + "/thumb.jpg"))).count)
        #expect(png.status == 0 && png.out.hasPrefix("\u{FFFD}PNG"))
        #expect(vtt.hasPrefix("WEBVTT\n\n1\n"))
        // Standard output without a format gets PNG.
        #expect(try cli.run(["thumbnail", "export", "Show/1", "-"]).out == png.out)
    }

    @Test("A file a script names that is not there is 66, as on the command line; nothing is written")
    func missingFileInSubmit() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "Pilot")
        let head = try cli.head()
        let line = #"{"command":"transcript.import","episode":"Show/1","file":"nope.txt"}"#
        let submitted = try cli.run(["submit", "-"], input: line + "\n")
        let direct = try cli.run(["transcript", "import", "Show/1", "nope.txt"])
        #expect(submitted.status == 66 && direct.status == 66)
        #expect(submitted.err == "error: line 1: cannot use nope.txt: no such file. Check the path.\n")
        #expect(try cli.head() == head)
    }

    @Test("transcript show prints the transcript as imported, escaped, and its warnings; --json gives both")
    func transcriptShow() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "Pilot")
        let text = "A title\n00:00:01\nAna\nHello \u{1B}[31mthere.\n"
        try cli.must("transcript", "import", "Show/1", try cli.write(text, to: "t.txt"))

        let shown = try cli.must("transcript", "show", "Show/1")
        #expect(shown.out == "A title\n00:00:01\nAna\nHello \\u{1B}[31mthere.\n\n")
        #expect(shown.err.contains("warning: line 1: \"A title\" is above the first timestamp"))
        let json = try cli.object("transcript", "show", "Show/1", "--json")
        #expect(json["text"] as? String == text)
        #expect((json["warnings"] as? [[String: Any]])?.map { $0["kind"] as? String } == ["header", "controlCharacters"])
        #expect(try cli.run(["transcript", "show", "Show/9"]).status == 65)
    }
}
