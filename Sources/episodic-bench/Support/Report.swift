import Foundation

/// Prints each figure as soon as it is measured, and keeps it for the JSON object printed at the end.
///
/// With JSON output, the readable lines go to stderr so that stdout holds the JSON object alone.
final class Report {
    private let jsonOutput: Bool
    private var members: [String] = []

    init(jsonOutput: Bool) {
        self.jsonOutput = jsonOutput
    }

    /// One readable line: a label in a column, then the figure and its context.
    func line(_ label: String, _ text: String) {
        let padded = label.count < 30 ? label + String(repeating: " ", count: 30 - label.count) : label + " "
        let stream = jsonOutput ? FileHandle.standardError : FileHandle.standardOutput
        stream.write(Data((padded + text + "\n").utf8))
    }

    /// A member of the JSON object; rates keep three decimals, which is more than their noise.
    func value(_ key: String, _ number: Double) {
        members.append(Self.quoted(key) + ":" + (number.isFinite ? "\((number * 1000).rounded() / 1000)" : "null"))
    }

    func value(_ key: String, _ number: Int) {
        members.append(Self.quoted(key) + ":" + String(number))
    }

    func value(_ key: String, _ text: String) {
        members.append(Self.quoted(key) + ":" + Self.quoted(text))
    }

    /// Prints the JSON object, if it was asked for.
    func finish() {
        guard jsonOutput else { return }
        FileHandle.standardOutput.write(Data(("{" + members.joined(separator: ",") + "}\n").utf8))
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension Report {
    /// The folder a run works in, whether it stays, and the disk under it: the first lines of a run.
    func folder(_ root: String, kept: Bool) {
        line("library", root + (kept ? " (kept)" : " (removed at the end)"))
        line("disk", DiskDescription.of(root))
    }
}
