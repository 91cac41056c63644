import ArgumentParser
import Episodic

/// A subcommand name that names none, caught before parsing so that the message can say what was
/// probably meant: `episodic podcst list` → "Did you mean podcast?", as git does. ArgumentParser
/// alone calls it an unexpected argument, and `episodic help nosuch` printed the top-level help.
enum SubcommandCheck {
    /// The usage error for the first word of `arguments` where a subcommand is due but none has that
    /// name; nil when every such word names one (or where a command with a default subcommand takes
    /// the word as its argument).
    static func problem(_ arguments: [String], root: ParsableCommand.Type) -> String? {
        // Shared options before any subcommand (`episodic --json podcst`) are no subcommand's.
        var words = arguments[LeadingOptions.options(leading: arguments).end...]
        let asksForHelp = words.first == "help"
        if asksForHelp { words = words.dropFirst() }
        let (command, length) = CommandPath.walk(words, from: root)
        guard let word = words.dropFirst(length).first, !word.hasPrefix("-") else { return nil }
        let subcommands = command.configuration.subcommands
        guard !subcommands.isEmpty, command.configuration.defaultSubcommand == nil || asksForHelp else { return nil }
        let path = ([root._commandName] + words.prefix(length)).joined(separator: " ")
        let names = subcommands.map { $0._commandName }
        let suggestion = Suggestion.closest(to: word, among: names).map { " Did you mean '\($0)'?" } ?? ""
        return "'\(path)' has no subcommand '\(word)'.\(suggestion) It has: \(names.joined(separator: ", ")). See '\(path) --help'."
    }
}
