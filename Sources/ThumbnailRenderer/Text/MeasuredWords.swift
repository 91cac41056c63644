/// One of the text's lines cut into words at its spaces, each word measured once by FreeType at a
/// reference size.
///
/// Text grows in proportion to its size: from 12 to 200 points, FreeType's widths are the reference's
/// scaled to within half a percent (measured with DejaVu Sans Bold), so one measure a word serves every
/// size the fitting tries. A measure costs about 0.15 ms however short the text, since FreeType sets its
/// size up anew each time; measuring each candidate line at each size would cost tens of milliseconds.
struct MeasuredWords {
    /// Points: large, so that FreeType's rounding to whole pixels is lost in the scaling.
    static let referenceSize = 1000.0

    let line: Substring
    /// Where each word is in `line`.
    private let words: [Range<Substring.Index>]
    /// At the reference size, pixels from the start of the line's baseline when it is set whole: each
    /// word's first inked column, the end of its last glyph's advance, and its ink's top and bottom (y
    /// growing down).
    private let inkLeft: [Double], penEnd: [Double], top: [Double], bottom: [Double]

    /// `line` (with text at both ends) measured word by word; `spaceAdvance` is how far a space moves the
    /// pen at the reference size. Kerning across a space is taken as none.
    init(_ line: Substring, font: ThumbnailFont, spaceAdvance: Double) throws(ThumbnailError) {
        self.line = line
        var words: [Range<Substring.Index>] = []
        var index = line.startIndex
        while let start = line[index...].firstIndex(where: { $0 != " " }) {
            let end = line[start...].firstIndex(of: " ") ?? line.endIndex
            words.append(start..<end)
            index = end
        }
        self.words = words
        var inkLeft: [Double] = [], penEnd: [Double] = [], top: [Double] = [], bottom: [Double] = []
        var pen = 0.0
        for (number, word) in words.enumerated() {
            if number > 0 { pen += Double(line[words[number - 1].upperBound..<word.lowerBound].count) * spaceAdvance }
            let extent = try TextMask.extent(of: String(line[word]), font: font, size: Self.referenceSize)
            inkLeft.append(pen + Double(extent.left))
            top.append(Double(extent.top))
            bottom.append(Double(extent.bottom))
            pen += Double(extent.right)
            penEnd.append(pen)
        }
        (self.inkLeft, self.penEnd, self.top, self.bottom) = (inkLeft, penEnd, top, bottom)
    }

    /// Words: 0 for a blank line.
    var count: Int { words.count }

    /// Words `span` as a line: as they are in the text, with the spaces between them.
    func text(_ span: ClosedRange<Int>) -> Substring { line[words[span.lowerBound].lowerBound..<words[span.upperBound].upperBound] }

    /// Pixels from the first word's ink to the last word's advance, set at `scale` times the reference
    /// size: FreeType's estimate of the ink's width (a glyph reaching past its advance, such as an
    /// italic's, reaches a little further).
    func width(_ span: ClosedRange<Int>, scale: Double) -> Double {
        (penEnd[span.upperBound] - inkLeft[span.lowerBound]) * scale
    }

    /// Pixels above (negative) and below the baseline that the ink of words `span` reaches, at `scale`
    /// times the reference size.
    func inkRows(_ span: ClosedRange<Int>, scale: Double) -> (top: Double, bottom: Double) {
        (top[span].min()! * scale, bottom[span].max()! * scale)
    }
}
