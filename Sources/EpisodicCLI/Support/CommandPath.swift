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
}
