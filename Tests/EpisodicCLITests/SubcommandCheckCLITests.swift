import Foundation
import Testing

/// A mistyped subcommand is a usage error that says what was probably meant.
@Suite("Did you mean: subcommands, and help for one that does not exist")
struct SubcommandCheckCLITests {
    @Test("A subcommand a letter off is 64 with the closest name; help nosuch is an error; log keeps its default")
    func mistyped() throws {
        let cli = CLI()
        try cli.must("init")
        let top = try cli.run("podcst", "list")
        #expect(top.status == 64 && top.err.contains("'episodic' has no subcommand 'podcst'. Did you mean 'podcast'?"))
        let nested = try cli.run("podcast", "lst")
        #expect(nested.status == 64 && nested.err.contains("Did you mean 'list'?") && nested.err.contains("It has: create,"))
        let far = try cli.run("nosuch")
        #expect(far.status == 64 && !far.err.contains("Did you mean"))

        let help = try cli.run("help", "nosuch")
        #expect(help.status == 64 && help.err.contains("no subcommand 'nosuch'") && help.out.isEmpty)
        #expect(try cli.must("help", "podcast", "list").out.contains("USAGE: episodic podcast list"))
        // `log` lists by default: a word after it is list's, not a subcommand to check.
        #expect(try cli.run("log", "--type", "PodcastCreated").status == 0)
        let json = try cli.run("--json", "podcst")
        #expect(json.status == 64)
        let error = try JSONSerialization.jsonObject(with: Data(json.err.utf8)) as? [String: [String: String]]
        #expect(error?["error"]?["message"]?.contains("Did you mean 'podcast'?") == true)
    }
}
