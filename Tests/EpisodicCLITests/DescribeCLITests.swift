import Foundation
import Testing

/// `describe` without text shows the description; only `--clear` removes it.
@Suite("describe shows, sets, and clears only when told")
struct DescribeCLITests {
    @Test("Without text it shows the description and changes nothing; --clear removes it; text and --clear together are 64")
    func describe() throws {
        let cli = CLI()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift", "--description", "Radio after dark.\nEvery night.")
        try cli.must("episode", "create", "Night Shift", "Pilot")
        let head = try cli.head()

        #expect(try cli.must("podcast", "describe", "Night Shift").out == "Radio after dark.\nEvery night.\n")
        #expect(try cli.object("podcast", "describe", "Night Shift", "--json")["description"] as? String == "Radio after dark.\nEvery night.")
        #expect(try cli.must("episode", "describe", "Night Shift/1").out == "–\n")
        #expect(try cli.head() == head)

        try cli.must("episode", "describe", "Night Shift/1", "The first one.")
        #expect(try cli.must("episode", "describe", "Night Shift/1").out == "The first one.\n")
        #expect(try cli.run(["episode", "describe", "Night Shift/1", "Other", "--clear"]).status == 64)
        try cli.must("episode", "describe", "Night Shift/1", "--clear")
        #expect(try cli.object("episode", "describe", "Night Shift/1", "--json")["description"] is NSNull)
        try cli.must("podcast", "describe", "Night Shift", "--clear")
        #expect(try cli.must("podcast", "describe", "Night Shift").out == "–\n")
    }
}
