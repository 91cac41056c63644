/// The text as it is drawn: its lines, at one size.
struct TextLayout: Hashable {
    /// Points.
    let size: Double
    /// From the first line with text to the last; blank lines between keep their room.
    let lines: [Substring]

    /// Baseline to baseline, in pixels: 1.2 times the size, whatever glyphs the lines hold, so that lines
    /// sit evenly and a line's room does not depend on its letters.
    static func lineSpacing(size: Double) -> Int { Int((size * 1.2).rounded()) }
}
