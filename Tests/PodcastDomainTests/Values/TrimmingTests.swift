import CoreValues
import Foundation
import Testing

/// The project trims text without Foundation; it must trim what Foundation's character sets name.
@Suite("Trimming spaces and white space")
struct TrimmingTests {
    /// Every space Unicode has (category Zs), the tab, the zero-width space (which Foundation counts here),
    /// the line breaks, and a character that looks empty but is no space (a byte-order mark).
    static let edges = [
        " ", "\t", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2005}", "\u{200A}", "\u{202F}", "\u{205F}", "\u{3000}",
        "\n", "\r", "\r\n", "\u{B}", "\u{C}", "\u{85}", "\u{2028}", "\u{2029}", "\u{200B}", "\u{FEFF}",
    ]

    @Test("trimmingSpaces and trimmingWhitespace trim what .whitespaces and .whitespacesAndNewlines do", arguments: edges)
    func asFoundation(edge: String) {
        for text in [edge + "a b" + edge, edge + edge, edge + "x", "x" + edge, ""] {
            #expect(String(text.trimmingSpaces) == text.trimmingCharacters(in: .whitespaces), "\(text.unicodeScalars.map(\.value))")
            #expect(
                String(text.trimmingWhitespace) == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.unicodeScalars.map(\.value))")
        }
    }
}
