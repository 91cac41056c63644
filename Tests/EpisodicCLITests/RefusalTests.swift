import CoreValues
import EventLog
import Foundation
import TestSupport
import Testing

/// Every way a command can be refused: each exits non-zero with a message that says what to do, and
/// leaves the log exactly as it was.
@Suite("Refused commands")
struct RefusalTests {
    /// A command, the exit code it must get, and words its message must hold.
    struct Refusal: CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        var message: String
        var input: String? = nil

        init(_ arguments: [String], _ status: Int32, _ message: String, input: String? = nil) {
            self.arguments = arguments
            self.status = status
            self.message = message
            self.input = input
        }

        var description: String { arguments.joined(separator: " ") }
    }

    @Test("each refusal exits with its code and a message, and appends nothing")
    func refusals() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show", "--id", "00000000-0000-4000-8000-000000000001")
        try cli.must("podcast", "create", "Other", "--id", "00000000-0000-4000-8000-000000000002")
        try cli.must("episode", "create", "Show", "First")
        try cli.must("episode", "create", "Show", "Second")
        try cli.must("episode", "create", "Show", "Gone")
        let gone = try cli.list("episode", "list", "Show", "--search", "gone")[0]["id"] as! String
        try cli.must("episode", "delete", gone)
        try cli.must("transcript", "import", "Show/1", Fixtures.path("zencastr-excerpt.txt"))
        let empty = try cli.write("", to: "empty.txt")
        let noTimes = try cli.write("just words, no timestamps\n", to: "plain.txt")
        let latin1 = cli.folder + "/latin1.txt"
        try Data([0x43, 0x61, 0x66, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: latin1))
        let image = RepositoryFiles.image("overlay.png")
        let truncated = cli.folder + "/truncated.png"
        try Data(try Data(contentsOf: URL(fileURLWithPath: image)).prefix(100)).write(to: URL(fileURLWithPath: truncated))
        try cli.must("episode", "create", "Other", "Unconvertible")

        let refusals: [Refusal] = [
            // Names and text.
            Refusal(["podcast", "create", " show "], 65, "already exists"),
            Refusal(["podcast", "create", "   "], 65, "is empty"),
            Refusal(["podcast", "create", "Two\nlines"], 65, "line break"),
            Refusal(["podcast", "create", String(repeating: "n", count: 201)], 65, "longer than 200"),
            Refusal(["podcast", "rename", "Other", "SHOW"], 65, "already exists"),
            Refusal(["podcast", "describe", "Show", String(repeating: "d", count: 5001)], 65, "longer than 5000"),
            Refusal(["episode", "create", "Show", ""], 65, "is empty"),
            Refusal(["episode", "retitle", "Show/1", " "], 65, "is empty"),
            Refusal(["thumbnail", "text", "Show/1", String(repeating: "t", count: 101)], 65, "longer than 100"),
            // Control characters, which a terminal printing the text would obey (NUL cannot be an argument: see submit).
            Refusal(["podcast", "create", "Evil\u{1B}]0;owned\u{7}"], 65, "podcast name holds the control character U+001B (ESC)"),
            Refusal(["podcast", "rename", "Show", "Ding\u{7}"], 65, "U+0007 (BEL)"),
            Refusal(["podcast", "describe", "Show", "Line one\nline\u{1B}[2J two"], 65, "description holds the control character U+001B"),
            Refusal(["episode", "create", "Show", "Del\u{7F}ete"], 65, "episode title holds the control character U+007F (DEL)"),
            Refusal(["episode", "retitle", "Show/1", "Next\u{85}line"], 65, "U+0085 (NEL)"),
            Refusal(["episode", "describe", "Show/1", "Red \u{9B}31m text"], 65, "U+009B (CSI)"),
            Refusal(["thumbnail", "text", "Show/1", "EP\u{1B}[5m1"], 65, "thumbnail text holds the control character U+001B"),
            Refusal(["thumbnail", "settings", "Show/1", "--font", "Inter\u{1B}Bold"], 65, "font name holds the control character"),
            Refusal(["font", "import", FontCLITests.dejaVuBold, "--name", "Deja\u{9D}0;x\u{9C}"], 65, "U+009D (OSC)"),
            Refusal(["podcast", "create", "Fine", "--actor", "ana\u{1B}]0;owned\u{7}"], 65, "the actor holds the control character U+001B"),
            Refusal(["podcast", "create", "Fine", "--actor", "ana\nbob"], 65, "the actor holds the control character U+000A (LF)"),
            Refusal(["submit"], 65, "podcast name holds the control character U+0000 (NUL)",
                input: #"{"command":"podcast.create","name":"Nul\u0000l"}"# + "\n"),
            Refusal(["submit"], 65, "description holds the control character U+0009 (TAB)",
                input: #"{"command":"episode.describe","episode":"Show/1","description":"a\tb"}"# + "\n"),
            // Numbers and dates.
            Refusal(["episode", "create", "Show", "Dup", "--number", "1"], 65, "already used"),
            Refusal(["episode", "create", "Show", "Zero", "--number", "0"], 64, "from 1 to 2147483647"),
            Refusal(["episode", "renumber", "Show/1", "2"], 65, "already used"),
            Refusal(["episode", "create", "Show", "When", "--publish-date", "tuesday week"], 65, "is not a publish date"),
            Refusal(["episode", "publish-date", "Show/1", "2026-13-45"], 65, "is not a publish date"),
            // Names that answer to nothing, to a deleted thing, or to several things.
            Refusal(["podcast", "rename", "Nope", "X"], 65, "no podcast answers to \"Nope\""),
            Refusal(["episode", "create", "Nope", "X"], 65, "no podcast answers"),
            Refusal(["episode", "retitle", "Show/99", "X"], 65, "no episode answers to \"Show/99\""),
            Refusal(["episode", "retitle", gone, "X"], 65, "was deleted"),
            Refusal(["episode", "show", gone], 65, "was deleted"),
            Refusal(["podcast", "rename", "00000000", "X"], 65, "could mean any of"),
            // Transcripts and subtitles.
            Refusal(["transcript", "import", "Show/2", cli.folder + "/missing.txt"], 66, "no such file"),
            Refusal(["transcript", "import", "Show/2", cli.folder], 65, "is a folder"),
            Refusal(["transcript", "import", "Show/2", empty], 65, "transcript is empty"),
            Refusal(["transcript", "import", "Show/2", latin1], 65, "not UTF-8"),
            Refusal(["transcript", "convert", "Show/2"], 65, "no transcript"),
            // A transcript is read at import: one that cannot become subtitles is refused there.
            Refusal(["transcript", "import", "Other/1", noTimes], 65, "has no timestamps"),
            Refusal(["transcript", "convert", "Other/1"], 65, "has no transcript"),
            Refusal(["transcript", "export", "Show/2"], 65, "no subtitles yet"),
            // Images.
            Refusal(["thumbnail", "background", "Show/1", noTimes], 65, "not a PNG or JPEG"),
            Refusal(["thumbnail", "background", "Show/1", truncated], 65, "damaged or cut short"),
            Refusal(["thumbnail", "background", "Show/1", Self.fixture("zero-by-zero.png")], 65, "0 x 0 pixels"),
            Refusal(["podcast", "artwork", "Show", Self.fixture("20000-by-20000.png")], 65, "20000 x 20000 pixels"),
            Refusal(["podcast", "artwork", "Show", cli.folder + "/none.png"], 66, "no such file"),
            Refusal(["podcast", "artwork", "Show"], 64, "--clear"),
            Refusal(["thumbnail", "overlay", "Show/1", image, "--clear"], 64, "--clear"),
            // Thumbnail settings.
            Refusal(["thumbnail", "settings", "Show/1", "--font-size", "500"], 64, "from 12 to 200 points"),
            Refusal(["podcast", "defaults", "Show", "--canvas", "10x10"], 64, "from 16 to 8192 pixels"),
            Refusal(["thumbnail", "settings", "Show/1", "--color", "red"], 64, "#RRGGBB"),
            Refusal(["thumbnail", "settings", "Show/1", "--position", "center", "--text-x", "0.2"], 64, "one or the other"),
            // Usage.
            Refusal(["episode", "list", "Show", "--sort", "sideways"], 64, "sort"),
            Refusal(["episode", "list", "Show", "--missing", "everything"], 64, "missing"),
            Refusal(["episode", "publish-date", "Show/1"], 64, "--clear"),
            Refusal(["projections", "rebuild"], 64, "--all"),
            Refusal(["podcast", "create"], 64, "name"),
            // Scripts: a bad line stops everything before anything runs; --atomic is all or nothing.
            Refusal(["submit"], 65, "line 2", input: #"{"command":"podcast.create","name":"New"}"# + "\n" + "{not json\n"),
            Refusal(["submit"], 65, "no command", input: #"{"command":"podcast.fly"}"# + "\n"),
            Refusal(["submit"], 65, "\"nme\" is not a field", input: #"{"command":"podcast.create","nme":"X"}"# + "\n"),
            Refusal(["submit"], 65, "\"name\" is missing", input: #"{"command":"podcast.rename","podcast":"Show"}"# + "\n"),
            Refusal(["submit"], 65, "whole number", input: #"{"command":"episode.renumber","episode":"Show/1","number":"7"}"# + "\n"),
            Refusal(["submit", "--atomic"], 65, "nothing was written",
                input: #"{"command":"podcast.create","name":"Fine"}"# + "\n" + #"{"command":"podcast.create","name":"show"}"# + "\n"),
            Refusal(["submit", "--atomic", "--keep-going"], 64, "cannot be given together", input: ""),
        ]

        let head = try cli.head()
        let segments = try segmentBytes(cli.library)
        for refusal in refusals {
            let result = try cli.run(refusal.arguments, input: refusal.input)
            #expect(result.status == refusal.status, "\(refusal): \(result.err)")
            #expect(result.err.contains(refusal.message), "\(refusal): \(result.err)")
            #expect(!result.err.isEmpty && !result.err.hasPrefix("Error: Error"), "\(refusal)")
            #expect(try cli.head() == head, "\(refusal) appended")
        }
        #expect(try segmentBytes(cli.library) == segments, "the log's bytes did not change")
    }

    @Test("a refusal with --json is a JSON object on stderr, naming its kind")
    func jsonError() throws {
        let cli = CLI()
        try cli.must("init")
        let result = try cli.run("podcast", "rename", "Nope", "X", "--json")
        #expect(result.status == 65)
        #expect(result.out.isEmpty)
        let error = try JSONSerialization.jsonObject(with: Data(result.err.utf8)) as! [String: [String: String]]
        #expect(error["error"]?["kind"] == "refused")
        #expect(error["error"]?["message"]?.contains("no podcast answers") == true)
    }

    @Test("a lock held too long by another process exits 75: try again")
    func lockTimeout() throws {
        let cli = CLI()
        try cli.must("init")
        let fd = open(cli.library + "/LOCK", O_RDWR)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        let result = try cli.run("podcast", "create", "Waiting", "--lock-timeout", "0.2")
        #expect(result.status == 75)
        #expect(result.err.contains("locked"))
        flock(fd, LOCK_UN)
        try cli.must("podcast", "create", "Waiting")
    }

    @Test("a damaged transcript blob exits 74 and says to restore it")
    func damagedBlob() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Show")
        try cli.must("episode", "create", "Show", "One")
        try cli.must("transcript", "import", "Show/1", Fixtures.path("zencastr-excerpt.txt"))
        let blobs = try FileManager.default.subpathsOfDirectory(atPath: cli.library + "/blobs").filter { $0.count > 60 }
        let blob = cli.library + "/blobs/" + (try #require(blobs.first))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: blob))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: blob))
        let head = try cli.head()
        let result = try cli.run("transcript", "convert", "Show/1")
        #expect(result.status == 74)
        #expect(result.err.contains("Restore it from a backup"))
        #expect(try cli.head() == head)
    }

    /// Crafted PNG headers (an image bomb, an empty image) in Fixtures.
    static func fixture(_ name: String) -> String {
        RepositoryFiles.path("Tests/EpisodicCLITests/Fixtures/" + name)
    }

    private func segmentBytes(_ library: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: library + "/log") {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: library + "/log/" + name))
        }
        return files
    }
}
