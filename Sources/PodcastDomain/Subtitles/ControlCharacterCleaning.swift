import CoreValues

/// Removes the control characters a transcript should not hold (NUL, ESC, the C1 controls…), which
/// would otherwise pass into the subtitles, with a warning per line. Tabs and line breaks stay; a
/// vertical tab or form feed becomes a space, as it separated words.
enum ControlCharacterCleaning {
    static func cleaned(_ text: String, warnings: inout TranscriptWarnings) -> String {
        guard text.unicodeScalars.contains(where: isRemoved) else { return text }
        var cleaned = String.UnicodeScalarView()
        var line = 1, count = 0
        var first: Unicode.Scalar?
        var previous: Unicode.Scalar?
        func endLine() {
            if let first, count > 0 { warnings.add(.controlCharacters(line: line, count: count, first: first)) }
            (count, first) = (0, nil)
        }
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" {
                // CR LF is one line break, as `TranscriptLine.split` counts lines.
                if !(scalar == "\n" && previous == "\r") {
                    endLine()
                    line += 1
                }
                cleaned.append(scalar)
            } else if isRemoved(scalar) {
                count += 1
                if first == nil { first = scalar }
                if scalar == "\u{0B}" || scalar == "\u{0C}" { cleaned.append(" ") }
            } else {
                cleaned.append(scalar)
            }
            previous = scalar
        }
        endLine()
        return String(cleaned)
    }

    private static func isRemoved(_ scalar: Unicode.Scalar) -> Bool {
        ControlCharacter.contains(scalar) && scalar != "\t" && !ControlCharacter.isLineBreak(scalar)
    }
}
