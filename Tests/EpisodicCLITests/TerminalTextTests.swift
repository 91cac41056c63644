import Testing

@testable import EpisodicCLI

/// The one escaping function everything printed for people goes through, and the table that measures
/// escaped text.
@Suite("Text for the terminal")
struct TerminalTextTests {
    /// `text` escaped. (`TerminalText("literal")` would be a literal, taken as written.)
    func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        TerminalText(text, keepingLineBreaks: keepingLineBreaks).description
    }

    @Test("controls, separators and bidirectional overrides are written as escapes; the rest is left as it is")
    func escapes() {
        #expect(escaped("a\u{1B}]0;x\u{7}b") == #"a\u{1B}]0;x\u{7}b"#)
        #expect(escaped("\u{0}\u{7F}\u{85}\u{9B}\u{9F}") == #"\u{0}\u{7F}\u{85}\u{9B}\u{9F}"#)
        #expect(escaped("tab\tline\ncr\r") == #"tab\tline\ncr\r"#)
        #expect(escaped("a\u{2028}b\u{2029}c") == #"a\u{2028}b\u{2029}c"#)
        #expect(escaped("abc\u{202E}fed\u{2066}x\u{2069}") == #"abc\u{202E}fed\u{2066}x\u{2069}"#)
        #expect(escaped("Café ✓ 👩‍💻 שלום ␛ ^[ \u{A0}") == "Café ✓ 👩‍💻 שלום ␛ ^[ \u{A0}")
    }

    @Test("a backslash is doubled, so an escape on screen always stands for a character")
    func unambiguous() {
        #expect(escaped(#"\u{1B}"#) == #"\\u{1B}"#)
        #expect(escaped("\\\u{1B}") == #"\\\u{1B}"#)
        #expect(escaped("\u{1B}") != escaped(#"\u{1B}"#))
    }

    @Test("a message keeps its own line breaks only when asked, and escapes the rest")
    func lineBreaks() {
        #expect(escaped("one\ntwo\r\n\u{1B}", keepingLineBreaks: true) == "one\ntwo\\r\n\\u{1B}")
        #expect(escaped("one\ntwo", keepingLineBreaks: false) == #"one\ntwo"#)
    }

    @Test("literals are kept, interpolated values escaped once, and text already escaped not again")
    func interpolation() {
        let title = "Pilot\u{1B}[2J"
        let line: TerminalText = "title:\t\(title) (\(3))"
        #expect(line.description == "title:\t" + #"Pilot\u{1B}[2J (3)"#)
        let nested: TerminalText = "[\(line)]"
        #expect(nested.description == "[" + line.description + "]")
        #expect(TerminalText(title).width == #"Pilot\u{1B}[2J"#.count)
    }

    @Test("a table measures, pads and cuts the escaped text, so its columns line up")
    func table() {
        var table = Table([.init(title: "NAME", flexible: true), .init(title: "N", alignRight: true)])
        table.append(["a\u{1B}b", "1"])
        table.append(["plain", "22"])
        #expect(table.render(width: nil).map(\.description) == ["NAME       N", #"a\u{1B}b"# + "   1", "plain     22"])
        var long = Table([.init(title: "NAME", flexible: true), .init(title: "N", alignRight: true)])
        long.append(["abcdefgh\u{1B}ij", "1"])
        // 16 escaped characters, cut to 12 so that the line fits in 15 columns.
        #expect(long.render(width: 15).map(\.description) == ["NAME          N", #"abcdefgh\u{…"# + "  1"])
    }
}
