import Foundation
import Testing

/// Every command's help ends in examples, and the examples stay true to the commands: each names a
/// subcommand path that exists, options that command declares, values it accepts, and no more
/// arguments than it takes. The command tree is read from `episodic --experimental-dump-help`.
@Suite("Examples in every command's help")
struct HelpExamplesCLITests {
    /// A command as the dump describes it.
    struct Command {
        var path: [String]
        var discussion: String
        var arguments: [[String: Any]]
        var subcommands: [Command]
        var defaultSubcommand: String?

        init(_ json: [String: Any], path: [String]) {
            let path = path + [json["commandName"] as! String]
            self.path = path
            discussion = json["discussion"] as? String ?? ""
            arguments = json["arguments"] as? [[String: Any]] ?? []
            defaultSubcommand = json["defaultSubcommand"] as? String
            subcommands = (json["subcommands"] as? [[String: Any]] ?? []).map { Command($0, path: path) }
        }

        /// The commands that run, rather than group others (ArgumentParser's own `help` left out).
        var leaves: [Command] {
            subcommands.isEmpty ? (path.last == "help" ? [] : [self]) : subcommands.flatMap(\.leaves)
        }

        /// The lines of the `Examples:` block that start with a command, without their indent.
        var examples: [String] { HelpExamplesCLITests.examples(in: discussion) }

        func option(named name: String) -> [String: Any]? {
            arguments.first { argument in
                (argument["names"] as? [[String: String]] ?? []).contains { $0["name"] == name }
            }
        }

        var positionals: [[String: Any]] { arguments.filter { $0["kind"] as? String == "positional" } }
    }

    static func tree() throws -> Command {
        let run = try CLI().run(["--experimental-dump-help"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        return Command(try #require(json["command"] as? [String: Any]), path: [])
    }

    @Test("every command's --help ends in examples, each line within 80 columns")
    func everyCommandHasExamples() throws {
        let root = try Self.tree()
        let cli = CLI()
        #expect(root.leaves.count > 40)
        for command in root.leaves {
            #expect(!command.examples.isEmpty, "\(command.path.joined(separator: " ")) has no examples")
            let help = try cli.run(Array(command.path.dropFirst()) + ["--help"])
            #expect(help.status == 0 && help.out.contains("\nExamples:\n  episodic "), "\(command.path): \(help.out)")
            for line in command.examples where line.count + 2 > 80 {
                Issue.record("\(command.path.joined(separator: " ")): an example wider than 80 columns wraps in help: \(line)")
            }
        }
    }

    @Test("every example names a command that exists, with options it declares and arguments it takes")
    func examplesParse() throws {
        let root = try Self.tree()
        var checked = 0
        for command in root.leaves {
            for line in command.examples {
                for invocation in Self.invocations(in: line) {
                    if let problem = Self.problem(invocation, root: root) {
                        Issue.record("\(command.path.joined(separator: " ")): `\(line)`: \(problem)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
    }

    @Test("the checker itself refuses an example that rotted")
    func checkerRefuses() throws {
        let root = try Self.tree()
        #expect(Self.problem(["episodic", "podcast", "lst"], root: root) != nil)
        #expect(Self.problem(["episodic", "episode", "list", "Night Shift", "--sorted", "date"], root: root) != nil)
        #expect(Self.problem(["episodic", "episode", "list", "Night Shift", "--missing", "audio"], root: root) != nil)
        #expect(Self.problem(["episodic", "episode", "show", "Night Shift/1", "extra"], root: root) != nil)
        #expect(Self.problem(["episodic", "podcast", "rename", "Night Shift"], root: root) != nil)
        #expect(Self.problem(["episodic", "log", "-n", "5", "--reverse"], root: root) == nil)
        #expect(Self.invocations(in: #"episodic undo --last && episodic redo   changes nothing"#)
            == [["episodic", "undo", "--last"], ["episodic", "redo"]])
        #expect(Self.invocations(in: #"episodic transcript import "Night Shift/3" - < ep3.txt   from standard input"#)
            == [["episodic", "transcript", "import", "Night Shift/3", "-"]])
    }

    /// The lines of a help discussion's `Examples:` block that start with a command, without their indent.
    static func examples(in discussion: String) -> [String] {
        guard let block = discussion.components(separatedBy: "Examples:\n").last, discussion.contains("Examples:\n") else {
            return []
        }
        return block.split(separator: "\n").map { String($0.drop { $0 == " " }) }.filter { $0.hasPrefix("episodic ") }
    }

    /// The `episodic` invocations of an example line, as the shell splits them: the gloss (after a
    /// run of three spaces) dropped, quotes removed, and pipes, `&&` and redirections (with their
    /// files) taken out.
    static func invocations(in line: String) -> [[String]] {
        let command = line.components(separatedBy: "   ").first ?? line
        var words: [String] = []
        var word: String?
        var quote: Character?
        for character in command {
            if let open = quote {
                if character == open { quote = nil } else { word!.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                word = word ?? ""
            } else if character == " " {
                if let done = word { words.append(done) }
                word = nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let done = word { words.append(done) }
        var invocations: [[String]] = [[]]
        var skipNext = false
        for word in words {
            if skipNext {
                skipNext = false
            } else if word == "&&" || word == "|" {
                invocations.append([])
            } else if word == "<" || word == ">" {
                skipNext = true
            } else {
                invocations[invocations.count - 1].append(word)
            }
        }
        return invocations.filter { $0.first == "episodic" }
    }

    /// What is wrong with `words` as an invocation of the tree's commands; nil when nothing is.
    static func problem(_ words: [String], root: Command) -> String? {
        var command = root
        var rest = words.dropFirst()
        while let word = rest.first, let next = command.subcommands.first(where: { $0.path.last == word }) {
            command = next
            rest = rest.dropFirst()
        }
        if !command.subcommands.isEmpty {
            guard let name = command.defaultSubcommand, let fallback = command.subcommands.first(where: { $0.path.last == name }) else {
                return "'\(command.path.joined(separator: " "))' needs a subcommand; '\(rest.first ?? "")' is none"
            }
            command = fallback
        }
        var positionals = 0
        while let word = rest.popFirst() {
            guard word.hasPrefix("-"), word != "-" else {
                positionals += 1
                continue
            }
            let (name, inline) = word.hasPrefix("--")
                ? (String(word.dropFirst(2).prefix { $0 != "=" }), word.contains("=") ? String(word.drop { $0 != "=" }.dropFirst()) : nil)
                : (String(word.dropFirst()), nil)
            guard let option = command.option(named: name) else {
                return "\(command.path.joined(separator: " ")) has no option \(word)"
            }
            guard option["kind"] as? String == "option" else { continue }
            guard let value = inline ?? rest.popFirst() else { return "\(word) needs a value" }
            if let values = option["allValues"] as? [String], !values.contains(value) {
                return "\(word) takes \(values.joined(separator: ", ")), not \(value)"
            }
        }
        let declared = command.positionals
        let repeating = declared.contains { $0["isRepeating"] as? Bool == true }
        let required = declared.filter { $0["isOptional"] as? Bool != true }.count
        if positionals > declared.count && !repeating { return "\(positionals) arguments, but it takes \(declared.count)" }
        if positionals < required { return "\(positionals) arguments, but it needs \(required)" }
        return nil
    }
}
