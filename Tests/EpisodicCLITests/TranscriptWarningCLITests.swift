import Foundation
import Testing

/// A transcript with small defects, as a podcaster would import it: read past with warnings that name
/// the line, kept with the transcript, refused under --strict.
@Suite("Transcript warnings on the command line")
struct TranscriptWarningCLITests {
    /// A title on top, a timestamp out of order, and a NUL.
    static let untidy = "Night Shift 12\n00:00:10\nAna\nHello.\n\n00:00:02\nBen\nEarl\u{0}ier?\n"

    private static func library() throws -> (CLI, String) {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("episode", "create", "Night Shift", "Twelve")
        return (cli, try cli.write(untidy, to: "untidy.txt"))
    }

    @Test("Import reads past the defects, prints each warning with its line, and episode show lists them")
    func importWarns() throws {
        // Given an untidy transcript
        let (cli, file) = try Self.library()

        // When it is imported
        let run = try cli.must("transcript", "import", "Night Shift/1", file)

        // Then the result line is on stdout, the warnings on stderr, and the episode keeps them
        #expect(run.out.hasPrefix("Imported a transcript into episode \"Night Shift/1\": "))
        let warnings = run.err.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(warnings == [
            "warning: line 1: \"Night Shift 12\" is above the first timestamp; this line skipped as a title.",
            "warning: line 6: 00:00:02.000 is before 00:00:10.000 on line 2; kept where it is, at 00:00:10.000.",
            "warning: line 8: a control character, U+0000 (NUL), removed.",
        ])
        let show = try cli.must("episode", "show", "Night Shift/1").out
        #expect(show.contains("warning: line 6: 00:00:02.000 is before 00:00:10.000"))
        let detail = try cli.object("episode", "show", "Night Shift/1", "--json")
        let recorded = try #require(detail["transcriptWarnings"] as? [[String: Any]])
        #expect(recorded.map { $0["kind"] as? String } == ["header", "timeOutOfOrder", "controlCharacters"])
        #expect(recorded.map { $0["line"] as? Int } == [1, 6, 8])

        // And convert says the same, in --json too
        let convert = try cli.object("transcript", "convert", "Night Shift/1", "--json")
        #expect((convert["warnings"] as? [[String: Any]])?.count == 3)
        let srt = try cli.must("transcript", "export", "Night Shift/1").out
        #expect(srt.contains("Ben: Earlier?") && !srt.contains("\u{0}"))
    }

    @Test("--strict refuses the same file with 65, listing the defects, and writes nothing")
    func strictRefuses() throws {
        let (cli, file) = try Self.library()
        let head = try cli.head()

        let run = try cli.run("transcript", "import", "Night Shift/1", file, "--strict")

        #expect(run.status == 65)
        #expect(run.err.contains("the transcript has defects that --strict refuses"))
        #expect(run.err.contains("• line 1: \"Night Shift 12\" is above the first timestamp"))
        #expect(run.err.contains("leave out --strict"))
        #expect(try cli.head() == head)
        // In a script, "strict": true does the same.
        let script = #"{"command":"transcript.import","episode":"Night Shift/1","file":"untidy.txt","strict":true}"#
        let submitted = try cli.run(["submit", "-"], input: script + "\n")
        #expect(submitted.status == 65)
        #expect(try cli.head() == head)
    }

    @Test("Convert --strict refuses a transcript that was imported with warnings")
    func convertStrict() throws {
        let (cli, file) = try Self.library()
        try cli.must("transcript", "import", "Night Shift/1", file)
        let head = try cli.head()

        let run = try cli.run("transcript", "convert", "Night Shift/1", "--strict")

        #expect(run.status == 65)
        #expect(run.err.contains("--strict refuses"))
        #expect(try cli.head() == head)
    }
}
