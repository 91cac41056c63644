import Episodic

/// Text for a person's terminal, with everything that is not printable escaped, so that text from the
/// library (names, titles, actors, snippets; older logs may hold control characters) or from the command
/// line can never drive the terminal. String literals are taken as written (they are ours; so is
/// `TerminalText("literal")`, which Swift reads as a literal); every interpolated value, and every string
/// given to ``init(_:keepingLineBreaks:)``, is escaped once, and a `TerminalText` interpolated into another
/// is not escaped again.
///
/// The escapes, as schemas/cli-output.md documents them: `\` is written `\\`; TAB, LF and CR are `\t`,
/// `\n` and `\r`; every other control (C0, DEL, C1), the line and paragraph separators U+2028 and U+2029,
/// and the bidirectional overrides and isolates (U+202A to U+202E, U+2066 to U+2069, which would reorder
/// the rest of the line) are `\u{` and the code point in hex `}`, e.g. ESC is `\u{1B}`. Escaping every
/// backslash keeps the form unambiguous: `\u{1B}` on screen is ESC, `\\u{1B}` is those six characters.
struct TerminalText: ExpressibleByStringInterpolation, CustomStringConvertible, Equatable {
    /// What is printed.
    private(set) var description: String

    init(stringLiteral literal: String) { description = literal }

    init(stringInterpolation: StringInterpolation) { description = stringInterpolation.text }

    /// `text` escaped; with `keepingLineBreaks`, LF is kept as a line break (the lines of a message).
    init(_ text: some StringProtocol, keepingLineBreaks: Bool = false) {
        description = Self.escape(text, keepingLineBreaks: keepingLineBreaks)
    }

    /// Columns it takes, as tables count them: characters of the escaped text.
    var width: Int { description.count }

    static func + (lhs: TerminalText, rhs: TerminalText) -> TerminalText {
        var joined = lhs
        joined.description += rhs.description
        return joined
    }

    /// `self`, cut to `width` characters with `…` when longer.
    func cut(to width: Int) -> TerminalText {
        guard description.count > width else { return self }
        var cut = TerminalText()
        cut.description = width > 1 ? description.prefix(width - 1) + "…" : String(description.prefix(width))
        return cut
    }

    /// `self` padded with spaces to `width` characters, on the right or (`right`) on the left.
    func padded(to width: Int, right: Bool = false) -> TerminalText {
        let padding = String(repeating: " ", count: max(0, width - self.width))
        var padded = TerminalText()
        padded.description = right ? padding + description : description + padding
        return padded
    }

    private init() { description = "" }

    struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + 16 * interpolationCount) }

        mutating func appendLiteral(_ literal: String) { text += literal }
        mutating func appendInterpolation(_ value: TerminalText) { text += value.description }
        mutating func appendInterpolation(_ value: some StringProtocol) { text += TerminalText.escape(value, keepingLineBreaks: false) }
        mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            text += TerminalText.escape(value.description, keepingLineBreaks: false)
        }
    }

    /// The one escaping function: see the type's documentation.
    static func escape(_ text: some StringProtocol, keepingLineBreaks: Bool) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return String(text) }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\n": escaped += keepingLineBreaks ? "\n" : "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where needsEscape(scalar): escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x5C, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: ControlCharacter.contains(scalar)
        }
    }
}
