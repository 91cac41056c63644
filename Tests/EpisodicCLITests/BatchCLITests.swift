import Crypto
import Foundation
import Testing

/// `thumbnail render --outdated` and `transcript convert --outdated`: the work of one episode done on
/// every episode of a podcast (or of all) that needs it, one commit each or one for all.
@Suite("Work on every episode that needs it")
struct BatchCLITests {
    /// Night Shift's episodes 1 to 4, each on a background but the fourth; the third rendered, then
    /// retitled (its thumbnail out of date); and Other's one episode, on a background.
    func library() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("podcast", "create", "Other")
        for title in ["One", "Two", "Three", "Four"] { try cli.must("episode", "create", "Night Shift", title) }
        try cli.must("episode", "create", "Other", "Elsewhere")
        for episode in ["Night Shift/1", "Night Shift/2", "Night Shift/3", "Other/1"] {
            try cli.must("thumbnail", "background", episode, ThumbnailCLITests.fixture("scaling-aspectFill.png"))
        }
        try cli.must("thumbnail", "render", "Night Shift/3")
        try cli.must("episode", "retitle", "Night Shift/3", "Three, again")
        return cli
    }

    /// The tasks `todo` lists for each episode of `podcast`, by number.
    func needs(_ cli: CLI, _ podcast: String) throws -> [Int: [String]] {
        var needs: [Int: [String]] = [:]
        for record in try cli.list("todo", "--podcast", podcast, "--within", "0") {
            needs[record["number"] as! Int] = (record["needs"] as! [[String: Any]]).map { $0["task"] as! String }
        }
        return needs
    }

    @Test("render --outdated draws every missing or outdated thumbnail of the podcast, a commit each; those without a background are counted")
    func renderOutdated() throws {
        // Given
        let cli = try library()
        let head = try cli.head()

        // When the podcast's outdated thumbnails are rendered
        let run = try cli.must("thumbnail", "render", "--outdated", "--podcast", "Night Shift")

        // Then episodes 1, 2 and 3 have theirs, each in a commit of its own; the fourth still needs a background
        let lines = run.out.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("Rendered the thumbnail of episode \"Night Shift/") }.count == 3, "\(run.out)")
        #expect(lines.last?.hasPrefix("Rendered 3 of 3 thumbnails (3 events); 1 episode needs a background first") == true, "\(run.out)")
        #expect(try cli.head() == head + 3)
        #expect(try needs(cli, "Night Shift") == [4: ["importTranscript", "setBackground"], 1: ["importTranscript"], 2: ["importTranscript"], 3: ["importTranscript"]])
        #expect(try needs(cli, "Other")[1] == ["importTranscript", "renderThumbnail"], "another podcast is left alone")

        // And undo takes back the last one alone
        try cli.must("undo", "--last")
        #expect(try needs(cli, "Night Shift")[3] == ["importTranscript", "renderThumbnail"])
        #expect(try needs(cli, "Night Shift")[2] == ["importTranscript"])

        // And with nothing left to render, it says so and writes nothing
        try cli.must("thumbnail", "render", "Night Shift/3")
        let again = try cli.must("thumbnail", "render", "--outdated", "--podcast", "Night Shift")
        #expect(again.out.hasPrefix("Nothing to do: no episode of Night Shift needs it; 1 episode needs a background first"), "\(again.out)")
    }

    @Test("--all takes every podcast; --atomic makes one commit of them all; --json prints a record per episode")
    func allAtomic() throws {
        let cli = try library()
        let head = try cli.head()
        let run = try cli.must("thumbnail", "render", "--outdated", "--all", "--atomic", "--json")
        let records = try run.out.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(records.count == 4, "a line per episode, and no summary: \(run.out)")
        #expect(try cli.head() == head + 4, "four events")
        #expect(Set(records.compactMap { $0["commandID"] as? String }).count == 1, "one commit: \(records)")
        #expect(try needs(cli, "Other")[1] == ["importTranscript"])
    }

    @Test("convert --outdated converts every transcript without current subtitles; a damaged one is refused, the others done, exit 74")
    func convertOutdated() throws {
        // Given three episodes with transcripts, one of them with subtitles already, and one whose transcript blob is damaged
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        for title in ["One", "Two", "Three", "Four"] { try cli.must("episode", "create", "Night Shift", title) }
        let zencastr = Fixtures.path("zencastr-excerpt.txt"), ranges = Fixtures.path("time-range-sample.txt")
        try cli.must("transcript", "import", "Night Shift/1", zencastr)
        try cli.must("transcript", "import", "Night Shift/2", ranges)
        try cli.must("transcript", "import", "Night Shift/3", zencastr)
        try cli.must("transcript", "convert", "Night Shift/3")
        let sha = SHA256.hash(data: try Data(contentsOf: URL(fileURLWithPath: ranges))).map { String(format: "%02x", $0) }.joined()
        let blob = try #require(try FileManager.default.subpathsOfDirectory(atPath: cli.library + "/blobs").first { $0 == sha.prefix(2) + "/" + sha.dropFirst(2) })
        var bytes = try Data(contentsOf: URL(fileURLWithPath: cli.library + "/blobs/" + blob))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: cli.library + "/blobs/" + blob))

        // When every outdated transcript of the podcast is converted
        let run = try cli.run("transcript", "convert", "--outdated", "--podcast", "Night Shift")

        // Then the first is converted, the second refused by name, and the summary counts the episode without a transcript
        #expect(run.status == 74, "\(run.err)")
        #expect(run.err.contains("error: Night Shift/2 (transcript.convert): "), "\(run.err)")
        #expect(run.out.contains("Converted 1 of 2 subtitles (1 event); 1 refused; 1 episode needs a transcript first"), "\(run.out)")
        #expect(try needs(cli, "Night Shift")[1] == ["setBackground"], "its subtitles are made")
        #expect(try needs(cli, "Night Shift")[2] == ["convertTranscript", "setBackground"])
    }

    @Test("podcast defaults --apply-to-existing changes the same settings in every episode, a command each; new ones start from them")
    func defaultsApplied() throws {
        // Given Night Shift's four episodes, one of them already at 96 pt
        let cli = try library()
        try cli.must("thumbnail", "settings", "Night Shift/2", "--font-size", "96")
        let head = try cli.head()

        // When the podcast's default size becomes 96 pt, applied to the episodes it has
        let run = try cli.must("podcast", "defaults", "Night Shift", "--font-size", "96", "--apply-to-existing")

        // Then the three others change, each in a commit of its own; Other's episode is left alone
        #expect(run.out.contains("Changed the settings of 3 of 4 episodes; 1 had them already."), "\(run.out)")
        #expect(try cli.head() == head + 4, "the defaults, then three episodes")
        for number in 1...4 {
            #expect(try cli.object("episode", "show", "Night Shift/\(number)")["thumbnailSettings"].flatMap { ($0 as? [String: Any])?["fontSize"] as? Double } == 96)
        }
        #expect(try cli.object("episode", "show", "Other/1")["thumbnailSettings"].flatMap { ($0 as? [String: Any])?["fontSize"] as? Double } == 72)
        // And undo takes back one episode's change alone
        try cli.must("undo", "--last")
        #expect(try cli.object("episode", "show", "Night Shift/4")["thumbnailSettings"].flatMap { ($0 as? [String: Any])?["fontSize"] as? Double } == 72)
    }

    @Test("one episode, or --outdated with --podcast or --all: anything else is a usage error, exit 64", arguments: [
        ["thumbnail", "render"],
        ["thumbnail", "render", "--outdated"],
        ["thumbnail", "render", "--outdated", "--podcast", "Night Shift", "--all"],
        ["thumbnail", "render", "Night Shift/1", "--outdated", "--all"],
        ["thumbnail", "render", "Night Shift/1", "--atomic"],
        ["transcript", "convert", "--podcast", "Night Shift"],
    ])
    func usage(_ arguments: [String]) throws {
        let cli = try library()
        let head = try cli.head()
        let run = try cli.run(arguments)
        #expect(run.status == 64, "\(run.err)")
        #expect(try cli.head() == head)
    }
}
