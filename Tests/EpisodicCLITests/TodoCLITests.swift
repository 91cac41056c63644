import Foundation
import Testing

/// `episodic todo`: what needs work across the library, each with the command that does it.
@Suite("What needs work")
struct TodoCLITests {
    @Test("todo lists what each episode needs, publishing soon first, with the command for each; --json for scripts")
    func needs() throws {
        // Given an episode with subtitles and a background but no thumbnail, one with nothing that
        // publishes tomorrow, one whose subtitles are outdated, and one that is ready and publishes in three days
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("episode", "create", "Night Shift", "One")
        try cli.must("episode", "create", "Night Shift", "Two", "--publish-date", "tomorrow")
        try cli.must("episode", "create", "Night Shift", "Three")
        try cli.must("episode", "create", "Night Shift", "Four", "--publish-date", "in 3 days")
        let transcript = Fixtures.path("zencastr-excerpt.txt")
        for episode in ["Night Shift/1", "Night Shift/3", "Night Shift/4"] {
            try cli.must("transcript", "import", episode, transcript)
            try cli.must("transcript", "convert", episode)
        }
        try cli.must("transcript", "import", "Night Shift/3", Fixtures.path("time-range-sample.txt"))
        for episode in ["Night Shift/1", "Night Shift/3", "Night Shift/4"] {
            try cli.must("thumbnail", "background", episode, ThumbnailCLITests.fixture("scaling-aspectFill.png"))
        }
        try cli.must("thumbnail", "render", "Night Shift/4")

        // When the work is listed
        let lines = try cli.must("todo").out.split(separator: "\n").map(String.init)
        let records = try cli.list("todo")

        // Then the two publishing soon come first, by date, then the others by number, each need with its command
        #expect(lines[0].hasPrefix("Night Shift/2  Two  publishes "), "\(lines)")
        #expect(lines[1] == "  no transcript                episodic transcript import 'Night Shift/2' <file>")
        #expect(lines[2] == "  no thumbnail, no background  episodic thumbnail background 'Night Shift/2' <image>")
        #expect(lines[3].hasPrefix("Night Shift/4  Four  publishes ") && lines[4] == "  ready", "\(lines)")
        #expect(lines[5] == "Night Shift/1  One" && lines[6] == "  no thumbnail  episodic thumbnail render 'Night Shift/1'", "\(lines)")
        #expect(lines[7] == "Night Shift/3  Three")
        #expect(lines[8] == "  subtitles outdated  episodic transcript convert 'Night Shift/3'")
        #expect(lines[9] == "  no thumbnail        episodic thumbnail render 'Night Shift/3'")
        #expect(try cli.list("todo")[0]["needs"].map { ($0 as! [[String: Any]]).map { $0["task"] as! String } } == ["importTranscript", "setBackground"])
        #expect(lines.count == 10, "\(lines)")
        #expect(records.map { $0["number"] as? Int } == [2, 4, 1, 3])
        let needs = records[3]["needs"] as? [[String: Any]]
        #expect(needs?.first?["task"] as? String == "convertTranscript" && needs?.first?["outdated"] as? Bool == true)

        // And a window of no days leaves out what only publishes soon; a podcast of its own has nothing to do
        #expect(try cli.list("todo", "--within", "0").map { $0["number"] as? Int } == [1, 2, 3])
        try cli.must("podcast", "create", "Empty")
        #expect(try cli.must("todo", "--podcast", "Empty").out.hasPrefix("Nothing to do: "))
        #expect(try cli.run("todo", "--within", "-1").status == 64)
    }
}
