import ArgumentParser
@testable import EpisodicCLI
import Testing

/// A command line is parsed by the type of the command it names when it can be, and that gives the
/// command parsing from the root gives (``CommandPath/parsedByLeaf(_:root:)``).
@Suite("Parsing a command line by its command's own type")
struct LeafParseTests {
    /// Every command that runs, rather than groups others, with the groups on the way to it.
    static func tree(_ command: ParsableCommand.Type = EpisodicTool.self) -> (leaves: [ParsableCommand.Type], groups: [ParsableCommand.Type]) {
        let subcommands = command.configuration.subcommands
        guard !subcommands.isEmpty else { return ([command], []) }
        let below = subcommands.map { tree($0) }
        return (below.flatMap(\.leaves), [command] + below.flatMap(\.groups))
    }

    /// The value's every stored property, as `dump` writes it.
    static func dumped(_ command: ParsableCommand) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }

    @Test("every example in the help parses by its command's type into the command parsing from the root gives")
    func examplesParseAlike() throws {
        var compared = 0
        for leaf in Self.tree().leaves {
            for line in HelpExamplesCLITests.examples(in: leaf.configuration.discussion) {
                for invocation in HelpExamplesCLITests.invocations(in: line) {
                    let arguments = LeadingOptions.rewritten(Array(invocation.dropFirst()), root: EpisodicTool.self)
                    let fromRoot = try? EpisodicTool.parseAsRoot(arguments)
                    let byLeaf = CommandPath.parsedByLeaf(arguments, root: EpisodicTool.self)
                    // Nil leaves it to the root (a group's default subcommand, say): never a wrong command.
                    guard let byLeaf else { continue }
                    let parsedFromRoot = try #require(fromRoot, "\(invocation) parses by its command only")
                    #expect(Self.dumped(byLeaf) == Self.dumped(parsedFromRoot), "\(invocation)")
                    compared += 1
                }
            }
        }
        #expect(compared > 100)
    }

    @Test("no command group declares an argument, and the root only --version, which asks for something else")
    func groupsDeclareNothing() {
        let groups = Self.tree().groups
        #expect(groups.count > 5)
        for group in groups where group != EpisodicTool.self {
            #expect(Mirror(reflecting: group.init()).children.isEmpty, "\(group) declares arguments")
        }
        #expect(Mirror(reflecting: EpisodicTool()).children.map(\.label) == ["_version"])
        #expect(CommandPath.asksForSomethingElse(["episode", "list", "--version"]))
    }

    @Test("a command line that does not parse as its command, or asks for something else, is left to the root")
    func leftToTheRoot() throws {
        let parsed = try #require(CommandPath.parsedByLeaf(
            ["episode", "retitle", "Night Shift/3", "New title", "--library", "/tmp/x"], root: EpisodicTool.self))
        let retitle = try #require(parsed as? EpisodeCommands.Retitle)
        #expect(retitle.episode == "Night Shift/3" && retitle.title == "New title" && retitle.global.library == "/tmp/x")

        for words in [
            ["episode", "retitle", "Night Shift/3"], ["episode", "retitle", "Night Shift/3", "T", "--nosuch"],
            ["episode", "retitle", "Night Shift/3", "T", "--version"], ["episode", "retitle", "Night Shift/3", "T", "-h"],
            ["episode"], ["help", "episode", "retitle"], ["nosuch", "list"], [],
        ] {
            #expect(CommandPath.parsedByLeaf(words, root: EpisodicTool.self) == nil, "\(words)")
        }
        // After `--`, a word is an argument, whatever it looks like.
        let dashed = try #require(CommandPath.parsedByLeaf(["episode", "retitle", "Night Shift/3", "--", "--help"], root: EpisodicTool.self))
        #expect((dashed as? EpisodeCommands.Retitle)?.title == "--help")
    }
}
