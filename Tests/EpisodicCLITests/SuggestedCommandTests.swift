import Foundation
import Testing

/// A command a message suggests can be pasted into a shell as it is printed.
@Suite("Suggested commands")
struct SuggestedCommandTests {
    @Test("the suggestion to convert again quotes an episode whose podcast's name has spaces and a quote, and runs when pasted")
    func pasteable() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Merge Conflict's Show")
        try cli.must("episode", "create", "Merge Conflict's Show", "Pilot")
        let episode = "Merge Conflict's Show/1"
        try cli.must("transcript", "import", episode, Fixtures.path("zencastr-excerpt.txt"))
        try cli.must("transcript", "convert", episode)
        try cli.must("transcript", "import", episode, Fixtures.path("sample-transcript-hhmmss.txt"))
        let export = try cli.run("transcript", "export", episode)
        #expect(export.status == 0)
        let suggestion = try #require(export.err.split(separator: "`").dropFirst().first.map(String.init))
        #expect(suggestion == #"episodic transcript convert 'Merge Conflict'"'"'s Show/1'"#)

        let process = try cli.shell(CLI.binary + suggestion.dropFirst("episodic".count))
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the pasted suggestion ran")
        #expect(try cli.run("transcript", "export", episode).err.isEmpty, "and the subtitles are current again")
    }
}
