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
        var command = root
        var path = [root._commandName]
        while let word = words.first, !word.hasPrefix("-") {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            guard let next = subcommands.first(where: { $0._commandName == word }) else {
                if command.configuration.defaultSubcommand != nil && !asksForHelp { return nil }
                let names = subcommands.map { $0._commandName }
                let suggestion = Suggestion.closest(to: word, among: names).map { " Did you mean '\($0)'?" } ?? ""
                return "'\(path.joined(separator: " "))' has no subcommand '\(word)'.\(suggestion) "
                    + "It has: \(names.joined(separator: ", ")). See '\(path.joined(separator: " ")) --help'."
            }
            command = next
            path.append(word)
            words = words.dropFirst()
        }
        return nil
    }
}
