import Foundation
import Testing

/// `transcript export` in the three formats, as a script would use it.
@Suite("Subtitle export from the command line")
struct SubtitleExportCLITests {
    /// A library with one converted episode.
    private static func converted() throws -> CLI {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        try cli.must("episode", "create", "Night Shift", "Pilot")
        try cli.must("transcript", "import", "Night Shift/1", Fixtures.path("zencastr-excerpt.txt"))
        try cli.must("transcript", "convert", "Night Shift/1")
        return cli
    }

    @Test("The extension chooses the format, --format overrides it, an unknown extension is refused, and each file is said")
    func formats() throws {
        // Given a converted episode
        let cli = try Self.converted()

        // When it is exported under each name
        let said = try cli.must("transcript", "export", "Night Shift/1", "a.vtt").out
        try cli.must("transcript", "export", "Night Shift/1", "b.JSON")
        try cli.must("transcript", "export", "Night Shift/1", "c.txt")
        try cli.must("transcript", "export", "Night Shift/1", "d.txt", "--format", "vtt")
        try cli.must("transcript", "export", "Night Shift/1", "e")
        let unknown = try cli.run("transcript", "export", "Night Shift/1", "f.docx")
        try cli.must("transcript", "export", "Night Shift/1", "g.docx", "--format", "srt")
        let standardOutput = try cli.must("transcript", "export", "Night Shift/1", "--format", "json").out

        // Then each file is what its name or --format asked for, and the export says what it wrote
        func file(_ name: String) throws -> String { try String(contentsOfFile: cli.folder + "/" + name, encoding: .utf8) }
        #expect(said.hasPrefix("Wrote the WebVTT subtitles of \"Night Shift/1\" to a.vtt (") && said.hasSuffix(" KB).\n"), "\(said)")
        #expect(try file("a.vtt").hasPrefix("WEBVTT\n\n1\n00:00:00.290 --> "))
        #expect(try file("d.txt") == file("a.vtt"))
        #expect(try file("c.txt").hasPrefix("James: "), "plain text: speakers and words")
        #expect(try !file("c.txt").contains("-->") && file("c.txt").contains("\n\nFrank: "))
        #expect(try file("e").hasPrefix("1\n00:00:00,290 --> "))
        #expect(try file("g.docx") == file("e"))
        #expect(unknown.status == 64 && unknown.err.contains("f.docx ends in .docx") && unknown.err.contains(".srt, .vtt, .json or .txt"), "\(unknown.err)")
        #expect(!FileManager.default.fileExists(atPath: cli.folder + "/f.docx"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(file("b.JSON").utf8)) as? [String: Any])
        let segments = try #require(json["segments"] as? [[String: Any]])
        #expect(segments.first?["speaker"] as? String == "James")
        #expect(Set(segments.compactMap { $0["speaker"] as? String }) == ["James", "Frank"])
        #expect(standardOutput == (try file("b.JSON")))
    }

    @Test("An unknown --format is a usage error (64) that lists the formats, and writes nothing")
    func unknownFormat() throws {
        let cli = try Self.converted()
        let run = try cli.run("transcript", "export", "Night Shift/1", "out.xml", "--format", "xml")
        #expect(run.status == 64)
        #expect(run.err.contains("'srt', 'vtt', 'json' or 'txt'"))
        #expect(!FileManager.default.fileExists(atPath: cli.folder + "/out.xml"))
    }
}
