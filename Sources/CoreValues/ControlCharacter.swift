/// The characters a terminal obeys instead of showing: the C0 controls (U+0000 to U+001F), DEL (U+007F)
/// and the C1 controls (U+0080 to U+009F), Unicode's general category Cc. ESC, BEL and U+009B (CSI) start
/// the sequences that move the cursor, retitle the window or rewrite the screen, so text people type
/// (names, titles, actors) refuses them, and text printed for people escapes them.
public enum ControlCharacter {
    /// Whether `scalar` is a C0 control, DEL or a C1 control.
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The line breaks a text of several lines holds: LF, and CR (alone or before LF).
    public static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool { scalar == "\n" || scalar == "\r" }

    /// The first control character of `text`, skipping LF and CR when `allowingLineBreaks`; nil when
    /// there is none.
    public static func first(in text: some StringProtocol, allowingLineBreaks: Bool = false) -> Unicode.Scalar? {
        text.unicodeScalars.first { contains($0) && !(allowingLineBreaks && isLineBreak($0)) }
    }

    /// `U+001B (ESC)`: the code point, and the control's usual abbreviation, as a message names it.
    public static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return abbreviation(scalar).map { "\(code) (\($0))" } ?? code
    }

    private static func abbreviation(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x00..<0x20: c0[Int(scalar.value)]
        case 0x7F: "DEL"
        case 0x80...0x9F: c1[Int(scalar.value - 0x80)]
        default: nil
        }
    }

    private static let c0 = [
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "TAB", "LF", "VT", "FF", "CR", "SO", "SI",
        "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
    ]
    private static let c1 = [
        "PAD", "HOP", "BPH", "NBH", "IND", "NEL", "SSA", "ESA", "HTS", "HTJ", "VTS", "PLD", "PLU", "RI", "SS2", "SS3",
        "DCS", "PU1", "PU2", "STS", "CCH", "MW", "SPA", "EPA", "SOS", "SGCI", "SCI", "CSI", "ST", "OSC", "PM", "APC",
    ]
}
