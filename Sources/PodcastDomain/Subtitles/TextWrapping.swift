/// Wraps a turn's words into cues of subtitle lines.
///
/// As few lines as a greedy fill of `maximumLineLength` display columns gives (``DisplayWidth``: a
/// Chinese or Japanese character takes two), breaking only at blanks, but
/// with the narrowest width that keeps that line count, so that the lines come out about equally long
/// and a turn does not end on an orphan cue such as `it.`. A word longer than a line is cut into
/// line-long pieces, each on a line of its own. Every `maximumLinesPerCue` lines make a cue. The
/// speaker, as `Name:`, is the first word of the first line and is never split.
struct TextWrapping {
    static func cues(speaker: Substring?, words: [Substring]) -> [CueText] {
        var tokens: [Token] = []
        tokens.reserveCapacity(words.count + 1)
        if let speaker {
            let prefix = speaker + ":"
            tokens.append(Token(text: prefix[...], length: DisplayWidth.columns(of: prefix), spoken: false))
        }
        for word in words { appendPieces(of: word, to: &tokens) }

        let lineCount = lines(of: tokens, width: SubtitleConventions.maximumLineLength)
        var narrow = 1, wide = SubtitleConventions.maximumLineLength
        while narrow < wide {
            let middle = (narrow + wide) / 2
            if lines(of: tokens, width: middle) <= lineCount { wide = middle } else { narrow = middle + 1 }
        }
        var wrapping = TextWrapping()
        wrapping.place(tokens, width: wide)
        return wrapping.cues
    }

    /// A word, or a line-long piece of a longer one, with its width in display columns.
    private struct Token {
        var text: Substring
        var length: Int
        var spoken: Bool
    }

    private var cues: [CueText] = []
    private var cueLines: [String] = []
    private var cueWeight = 0
    private var line = ""
    private var lineLength = 0

    /// Cuts words wider than a line into pieces of at most `maximumLineLength` columns and a narrower
    /// remainder (a run of Chinese text has no blanks to break at).
    private static func appendPieces(of word: Substring, to tokens: inout [Token]) {
        let maximum = SubtitleConventions.maximumLineLength
        let width = DisplayWidth.columns(of: word)
        guard width > maximum else {
            tokens.append(Token(text: word, length: width, spoken: true))
            return
        }
        var pieceStart = word.startIndex, pieceWidth = 0
        var index = word.startIndex
        while index < word.endIndex {
            let columns = DisplayWidth.columns(of: word[index])
            if pieceWidth + columns > maximum {
                tokens.append(Token(text: word[pieceStart..<index], length: pieceWidth, spoken: true))
                (pieceStart, pieceWidth) = (index, 0)
            }
            pieceWidth += columns
            word.formIndex(after: &index)
        }
        tokens.append(Token(text: word[pieceStart...], length: pieceWidth, spoken: true))
    }

    /// The greedy fill's line count at `width`; a token wider than `width` takes a line alone.
    private static func lines(of tokens: [Token], width: Int) -> Int {
        var lines = 0, lineLength = 0
        for token in tokens {
            if token.length > width {
                lines += lineLength > 0 ? 2 : 1
                lineLength = 0
            } else if lineLength > 0 && lineLength + 1 + token.length <= width {
                lineLength += 1 + token.length
            } else {
                if lineLength > 0 { lines += 1 }
                lineLength = token.length
            }
        }
        return lines + (lineLength > 0 ? 1 : 0)
    }

    /// The same fill as `lines(of:width:)`, building the lines and cues.
    private mutating func place(_ tokens: [Token], width: Int) {
        for token in tokens {
            let alone = token.length > width
            if lineLength > 0 && (alone || lineLength + 1 + token.length > width) { endLine() }
            if lineLength > 0 {
                line.append(" ")
                lineLength += 1
            }
            line.append(contentsOf: token.text)
            lineLength += token.length
            if token.spoken { cueWeight += token.length + 1 }
            if alone { endLine() }
        }
        endLine()
        endCue()
    }

    private mutating func endLine() {
        guard lineLength > 0 else { return }
        cueLines.append(line)
        line = ""
        lineLength = 0
        if cueLines.count == SubtitleConventions.maximumLinesPerCue { endCue() }
    }

    private mutating func endCue() {
        guard !cueLines.isEmpty else { return }
        cues.append(CueText(lines: cueLines, weight: cueWeight))
        cueLines = []
        cueWeight = 0
    }
}
