import ArgumentParser
@testable import EpisodicCLI
import EventLog
import Foundation
import Testing
import TestSupport

/// `--actor` names who makes a change on every command that appends. The commands are not listed
/// here: each command of the CLI's own table runs the examples of its help, in a library those
/// examples fit (or, for those that create what it holds, an empty one), once with `--actor` and,
/// when that appends nothing, once without; a command that appends only without it does not take
/// the option.
@Suite("--actor on every command that appends")
struct ActorOptionCLITests {
    /// The actor the examples are run as; the library was made by `tester`.
    static let probe = "probe-actor"

    /// A library the help's examples are written against: "Night Shift" with episodes 1 to 3, the third
    /// with a transcript and a background, a font imported as "Inter", and an undo to redo; beside
    /// it, the files the examples name.
    static func fixture() throws -> CLI {
        let cli = try withFiles()
        try cli.must("init")
        try cli.must("podcast", "create", "Night Shift")
        for title in ["One", "Two", "Three"] { try cli.must("episode", "create", "Night Shift", title) }
        try cli.must("transcript", "import", "Night Shift/3", "ep3.txt")
        try cli.must("thumbnail", "background", "Night Shift/3", "studio.jpg")
        try cli.must("font", "import", "Inter-Bold.ttf", "--name", "Inter")
        try cli.must("episode", "retitle", "Night Shift/2", "Deux")
        try cli.must("undo", "--last")
        return cli
    }

    /// A folder with the files the examples name, and no library yet.
    static func withFiles() throws -> CLI {
        let cli = CLI()
        let images = RepositoryFiles.path("Tests/ThumbnailRendererTests/Fixtures")
        let transcript = RepositoryFiles.path("Tests/PodcastDomainTests/Fixtures/transcripts/zencastr-excerpt.txt")
        for (source, name) in [
            (transcript, "ep3.txt"), (images + "/scaling-aspectFill.png", "studio.jpg"), (images + "/overlay.png", "frame.png"),
            (images + "/scaling-stretch.png", "cover.jpg"), (FontCLITests.dejaVuBold, "Inter-Bold.ttf"),
        ] {
            try FileManager.default.copyItem(atPath: source, toPath: cli.folder + "/" + name)
        }
        _ = try cli.write("WEBVTT\n\n00:00.000 --> 00:02.500\n<v Ana>Welcome back.\n\n00:02.500 --> 00:05.000\n<v Bo>Thanks.\n", to: "ep3.vtt")
        _ = try cli.write(#"{"command":"episode.create","podcast":"Night Shift","title":"Bonus"}"# + "\n", to: "commands.jsonl")
        return cli
    }

    /// One example of a command's help, as run.
    struct Example {
        var arguments: [String]
        /// The file the example feeds on standard input (`< file`), if any.
        var input: String?
    }

    /// The invocations of a command's help's examples, each with what its line reads on standard
    /// input. A server named there is one that refuses at once.
    static func examples(of leaf: ParsableCommand.Type) -> [Example] {
        HelpExamplesCLITests.examples(in: leaf.configuration.discussion).flatMap { line in
            let words = (line.components(separatedBy: "   ").first ?? line).split(separator: " ")
            let input = words.firstIndex(of: "<").flatMap { $0 + 1 < words.count ? String(words[$0 + 1]) : nil }
            return HelpExamplesCLITests.invocations(in: line).map { invocation in
                Example(arguments: invocation.dropFirst().map { $0.replacingOccurrences(of: "db.example.com", with: "127.0.0.1:1") }, input: input)
            }
        }
    }

    /// The events `run` appends to a fresh copy of `fixture`'s library and files, and how it ended.
    static func appended(by arguments: [String], input: String?, on fixture: CLI) throws -> (events: [RecordedEvent], run: CLI.Run) {
        let copy = CLI()
        try FileManager.default.removeItem(atPath: copy.folder)
        try FileManager.default.copyItem(atPath: fixture.folder, toPath: copy.folder)
        let before = try EventLog(at: copy.library).events().count
        let stdin = try input.map { try Data(contentsOf: URL(fileURLWithPath: copy.folder + "/" + $0)) }
        let run = try copy.run(arguments, inputData: stdin, stoppingAfter: 5)
        return (Array(try EventLog(at: copy.library).events().dropFirst(before)), run)
    }

    @Test("every command of the command table that appends takes --actor and records it in each event it appends")
    func everyAppendingCommand() throws {
        // The examples that create what the first library holds (a podcast, a font) run on the second.
        let empty = try Self.withFiles()
        try empty.must("init")
        let fixtures = [try Self.fixture(), empty]
        var appending: Set<String> = []
        let leaves = Self.leaves()
        for (name, leaf) in leaves {
            for example in Self.examples(of: leaf) {
                let described = "`episodic \(example.arguments.joined(separator: " "))`"
                for fixture in fixtures {
                    let (events, run) = try Self.appended(by: example.arguments + ["--actor", Self.probe], input: example.input, on: fixture)
                    if !events.isEmpty {
                        appending.insert(name)
                        #expect(events.allSatisfy { $0.actor == Self.probe }, "\(described) --actor: recorded \(Set(events.map(\.actor)))")
                        break
                    }
                    guard !run.signaled else { break }
                    let (without, plain) = try Self.appended(by: example.arguments, input: example.input, on: fixture)
                    guard without.isEmpty else {
                        Issue.record("\(described) appends, but not with --actor (exit \(run.status)): \(run.err) / \(plain.err)")
                        break
                    }
                }
            }
        }
        // Every command that declares the option appended through one of its examples: none was passed over.
        let declaring = leaves.filter { _, leaf in
            Mirror(reflecting: leaf.init()).children.contains { "\(type(of: $0.value))".contains("ActorOption") }
        }
        #expect(declaring.count > 20)
        for (name, _) in declaring {
            #expect(appending.contains(name), "\(name) takes --actor, but none of its examples appended")
        }
        #expect(appending.isSuperset(of: ["thumbnail render", "redo", "undo"]))
    }

    /// The commands of the CLI's table that run, rather than group others, by their path.
    static func leaves(_ command: ParsableCommand.Type = EpisodicTool.self, path: [String] = []) -> [(String, ParsableCommand.Type)] {
        let subcommands = command.configuration.subcommands
        guard !subcommands.isEmpty else { return [(path.joined(separator: " "), command)] }
        return subcommands.flatMap { leaves($0, path: path + [$0.configuration.commandName ?? ""]) }
    }
}
