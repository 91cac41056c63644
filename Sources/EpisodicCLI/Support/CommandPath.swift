import ArgumentParser

/// The subcommands that words name, one under the other: `episode retitle` under `episodic`.
enum CommandPath {
    /// The deepest command that the first of `words` name, each a subcommand of the one before, from
    /// `root`; and how many words named it. Stops at the first word that names no subcommand.
    static func walk(_ words: ArraySlice<String>, from root: ParsableCommand.Type) -> (command: ParsableCommand.Type, length: Int) {
        var command = root
        var length = 0
        for word in words {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == word }) else { break }
            command = next
            length += 1
        }
        return (command, length)
    }

    /// The words that ask for something other than running a command: help, the version, completions.
    private static let notACommand: Set<String> = ["-h", "--help", "--version", "--experimental-dump-help"]

    /// Whether `arguments` may ask for something other than running a command (help, the version,
    /// completions): ArgumentParser reads those words anywhere before a `--`.
    static func asksForSomethingElse(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains { word in
            notACommand.contains(word) || word.hasPrefix("---") || word.hasPrefix("--generate-completion-script")
        }
    }

    /// The command `arguments` name, parsed and validated by its own type, when they name one with no
    /// subcommands and ask for nothing else; nil otherwise, or when they do not parse as that command.
    ///
    /// Parsing from `root` reflects every command on the way down (ArgumentParser builds each one's
    /// arguments by reflection, some of them three times): for a retitle, a third of a millisecond of
    /// its four. It gives the same command only because no command group declares an argument of its
    /// own, and the root's one, `--version`, asks for something else (the tests hold both to this). On
    /// nil, the caller parses from the root, whose usage texts and errors name the whole command.
    static func parsedByLeaf(_ arguments: [String], root: ParsableCommand.Type) -> ParsableCommand? {
        let (command, length) = walk(arguments[...], from: root)
        guard length > 0, command.configuration.subcommands.isEmpty, !asksForSomethingElse(arguments) else { return nil }
        return try? command.parseAsRoot(Array(arguments.dropFirst(length)))
    }
}
