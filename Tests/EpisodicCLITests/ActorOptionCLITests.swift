import ArgumentParser
@testable import EpisodicCLI
import EventLog
import Foundation
import Testing
import TestSupport

/// `--actor` names who makes a change on every command that appends. The commands are not listed
/// here: each command of the CLI's own table runs the examples of its help, in a library those
/// examples fit (or, for those that create what it holds, an empty one; for those that mend a log,
/// one whose last acknowledged commit is gone), once with `--actor` and, when that appends nothing,
/// once without; a command that appends only without it does not take the option.
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

    /// `fixture` with its last acknowledged commit cut from the log at its frame's start, as a lost
    /// tail leaves it: the read models and the stream index had seen it.
    static func lostTail() throws -> CLI {
        let cli = try fixture()
        let log = cli.library + "/log"
        let segment = log + "/" + (try FileManager.default.contentsOfDirectory(atPath: log).filter { $0.hasSuffix(".seg") }.max()!)
        let length = try #require(try FileManager.default.attributesOfItem(atPath: segment)[.size] as? UInt64)
        let head = try EventLog(at: cli.library).head
        try cli.must("episode", "retitle", "Night Shift/1", "Uno")
        let handle = try #require(FileHandle(forWritingAtPath: segment))
        try handle.truncate(atOffset: length)
        try handle.close()
        #expect(try EventLog(at: cli.library).head == head)
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
        // The examples that create what the first library holds (a podcast, a font) run on the second,
        // those that accept a lost tail (`log repair --accept-loss`) on the third.
        let empty = try Self.withFiles()
        try empty.must("init")
        let fixtures = [try Self.fixture(), empty, try Self.lostTail()]
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

    @Test("a dry run of undo or redo records no actor, so an actor that could not be recorded does not stop it", arguments: ["undo", "redo"])
    func dryRunTakesAnyActor(_ command: String) throws {
        // Given a library whose newest command can be undone, and whose last undo can be redone
        let cli = try Self.fixture()
        let arguments = command == "undo" ? ["undo", "--last"] : ["redo"]
        let before = try EventLog(at: cli.library).events().count

        // When it runs as a dry run, and for real, as an actor holding an escape
        let dry = try cli.run(arguments + ["--dry-run", "--actor", "an\u{1B}a"])
        let real = try cli.run(arguments + ["--actor", "an\u{1B}a"])

        // Then the dry run says what it would do, the real one is refused, and nothing is appended
        #expect(dry.status == 0 && !dry.out.isEmpty, "\(dry.err)")
        #expect(real.status == 65 && real.err.contains("actor"), "\(real.err)")
        #expect(try EventLog(at: cli.library).events().count == before)
    }

    /// The commands of the CLI's table that run, rather than group others, by their path.
    static func leaves(_ command: ParsableCommand.Type = EpisodicTool.self, path: [String] = []) -> [(String, ParsableCommand.Type)] {
        let subcommands = command.configuration.subcommands
        guard !subcommands.isEmpty else { return [(path.joined(separator: " "), command)] }
        return subcommands.flatMap { leaves($0, path: path + [$0.configuration.commandName ?? ""]) }
    }
}
