import Foundation

/// `man` pages for every command, one each (`episodic.thumbnail.text.1`), written from the commands'
/// own help as ArgumentParser describes it (`--experimental-dump-help`), so that the pages say what
/// `--help` says and a binary alone can install them.
enum ManualPages {
    /// A command as the help dump describes it: the fields the pages use.
    struct Command: Decodable {
        var commandName: String
        var abstract: String?
        var discussion: String?
        var shouldDisplay: Bool?
        var arguments: [Argument]?
        var subcommands: [Command]?
    }

    struct Argument: Decodable {
        enum Kind: String, Decodable { case positional, option, flag }
        struct Name: Decodable {
            var kind: String
            var name: String
            /// As typed: `--name`, `-n`, or `-name` for a long name with one dash.
            var typed: String { kind == "short" || kind == "longWithSingleDash" ? "-" + name : "--" + name }
        }

        var kind: Kind
        var names: [Name]?
        var valueName: String?
        var abstract: String?
        var discussion: String?
        var isOptional: Bool
        var isRepeating: Bool
        var defaultValue: String?
        var shouldDisplay: Bool
    }

    private struct Dump: Decodable { var command: Command }

    /// The root command, read from the help dump the tool prints of itself.
    static func command(fromDump json: Data) throws -> Command { try JSONDecoder().decode(Dump.self, from: json).command }

    /// Each page's file name and roff source, the root's first, then depth first in the help's order;
    /// hidden commands have none. `version` goes in each page's footer.
    static func pages(of root: Command, version: String) -> [(name: String, text: String)] {
        func walk(_ command: Command, path: [String]) -> [(String, String)] {
            guard command.shouldDisplay ?? true else { return [] }
            let children = (command.subcommands ?? []).filter { $0.shouldDisplay ?? true }
            let page = Page(command: command, path: path, children: children.map(\.commandName), version: version)
            return [(path.joined(separator: ".") + ".1", page.text)]
                + children.flatMap { walk($0, path: path + [$0.commandName]) }
        }
        return walk(root, path: [root.commandName])
    }

    /// One page in the `man` macros.
    private struct Page {
        let command: Command
        let path: [String]
        let children: [String]
        let version: String

        var text: String {
            let title = path.joined(separator: ".")
            var lines = [
                ".TH \(Roff.escaped(title.uppercased())) 1 \"\" \"\(Roff.escaped(version))\" \"Episodic Manual\"",
                // Ragged right and no hyphenation, as git's pages: an option or a name is never split.
                ".ad l",
                ".nh",
                ".SH NAME",
                "\(Roff.escaped(path.joined(separator: " "))) \\- \(Roff.escaped(command.abstract ?? ""))",
                ".SH SYNOPSIS",
                ".B \(Roff.escaped(path.joined(separator: " ")))",
            ]
            let shown = (command.arguments ?? []).filter(\.shouldDisplay)
            lines += shown.map { Roff.escaped(Self.synopsis($0)) }
            if !children.isEmpty { lines.append(Roff.escaped("<command>")) }
            if let discussion = command.discussion, !discussion.isEmpty {
                lines += [".SH DESCRIPTION"] + Roff.paragraphs(discussion)
            }
            if !children.isEmpty {
                lines.append(".SH COMMANDS")
                for child in (command.subcommands ?? []) where children.contains(child.commandName) {
                    lines += [".TP", ".B \(Roff.escaped(child.commandName))", Roff.escaped(child.abstract ?? "")]
                }
            }
            if !shown.isEmpty {
                lines.append(".SH OPTIONS")
                for argument in shown {
                    lines += [".TP", Roff.escaped(Self.label(argument))]
                    var help = argument.abstract ?? ""
                    if let value = argument.defaultValue, !value.isEmpty, argument.kind != .flag { help += " (default: \(value))" }
                    lines.append(Roff.escaped(help))
                    if let discussion = argument.discussion, !discussion.isEmpty { lines += Roff.paragraphs(discussion) }
                }
            }
            let related = (path.count > 1 ? [path.dropLast().joined(separator: ".")] : []) + children.map { (path + [$0]).joined(separator: ".") }
            if !related.isEmpty {
                lines += [".SH SEE ALSO", related.map { "\(Roff.escaped($0))(1)" }.joined(separator: ", ")]
            }
            return lines.joined(separator: "\n") + "\n"
        }

        /// How the argument appears in the synopsis: `[--json]`, `--podcast <podcast>`, `<episode>`, `[<text>]`.
        private static func synopsis(_ argument: Argument) -> String {
            var word = label(argument, allNames: false)
            if argument.isRepeating { word += " ..." }
            return argument.isOptional ? "[\(word)]" : word
        }

        /// The argument's names and value: `-q, --quiet`, `--library <path>`, `<episode>`.
        private static func label(_ argument: Argument, allNames: Bool = true) -> String {
            let value = "<\(argument.valueName ?? "value")>"
            guard argument.kind != .positional, let names = argument.names, !names.isEmpty else { return value }
            let shown = allNames ? names.sorted { $0.typed.count < $1.typed.count }.map(\.typed).joined(separator: ", ") : names[0].typed
            return argument.kind == .option ? "\(shown) \(value)" : shown
        }
    }
}

/// Text for roff: escaped so that it prints as written.
enum Roff {
    /// Backslashes and dashes escaped (a plain `-` may print as a hyphen, which a pasted option would not
    /// match), and a line that would start with a control character guarded.
    static func escaped(_ text: String) -> String {
        let body = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }

    /// Help text as paragraphs: blank lines part them, and lines indented by two spaces (examples, lists)
    /// keep their lines and spacing.
    static func paragraphs(_ text: String) -> [String] {
        var lines: [String] = []
        var literal = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let indented = line.hasPrefix("  ")
            if line.isEmpty {
                if literal { lines.append(".fi"); literal = false }
                lines.append(".PP")
                continue
            }
            if indented && !literal { lines.append(".nf"); literal = true }
            if !indented && literal { lines.append(".fi"); literal = false }
            lines.append(escaped(line))
        }
        if literal { lines.append(".fi") }
        return [".PP"] + lines
    }
}
