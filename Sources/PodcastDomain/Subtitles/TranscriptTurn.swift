/// One timestamped stretch of speech, as read from the transcript, before wrapping and timing.
struct TranscriptTurn {
    /// Where its timestamp is, for errors.
    var line: Int
    /// Milliseconds; never before the previous turn's start (crosstalk is moved up to it).
    var start: Int
    /// The line where `start` is written: `line`, or for crosstalk the earlier turn's line.
    var startLine: Int
    /// Milliseconds, exclusive; only time ranges give one.
    var end: Int?
    var speaker: Substring?
    /// The spoken words in order, split at blanks; empty for a turn with nothing said.
    var words: [Substring]
}

extension TranscriptTurn {
    /// Appends the blank-separated words of `text`.
    mutating func appendWords(of text: Substring) {
        let bytes = text.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex {
            while index < bytes.endIndex, TranscriptLine.isBlank(bytes[index]) { bytes.formIndex(after: &index) }
            let wordStart = index
            while index < bytes.endIndex, !TranscriptLine.isBlank(bytes[index]) { bytes.formIndex(after: &index) }
            if wordStart < index { words.append(text[wordStart..<index]) }
        }
    }
}
