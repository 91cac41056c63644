/// One line of a transcript that holds something, trimmed of surrounding spaces and tabs, with its
/// 1-based number for errors. Blank lines are not kept: two lines are apart (by a blank one, as an SRT
/// or WebVTT cue ends) when their numbers are not consecutive.
struct TranscriptLine {
    var number: Int
    var text: Substring

    /// Splits at `\n`, `\r\n` or a lone `\r`, after dropping a UTF-8 byte-order mark, and keeps the
    /// lines that are not blank. Line numbers count every line, blank ones included, as an editor does;
    /// a transcript of blank lines costs no more than its text.
    static func split(_ transcript: String) -> [TranscriptLine] {
        let bytes = transcript.utf8
        var index = bytes.startIndex
        if bytes.starts(with: byteOrderMark) { index = bytes.index(index, offsetBy: byteOrderMark.count) }
        var lines: [TranscriptLine] = []
        var number = 1
        var lineStart = index
        func add(_ text: Substring) {
            if !text.isEmpty { lines.append(TranscriptLine(number: number, text: text)) }
            number += 1
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == lineFeed || byte == carriageReturn else {
                bytes.formIndex(after: &index)
                continue
            }
            add(trimmed(transcript, lineStart..<index))
            bytes.formIndex(after: &index)
            if byte == carriageReturn, index < bytes.endIndex, bytes[index] == lineFeed {
                bytes.formIndex(after: &index)
            }
            lineStart = index
        }
        if lineStart < bytes.endIndex { add(trimmed(transcript, lineStart..<bytes.endIndex)) }
        return lines
    }

    /// Whether `next` is the line right after this one, with no blank line between them.
    func isFollowed(by next: TranscriptLine) -> Bool { next.number == number + 1 }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// The range without leading and trailing ASCII blanks (space, tab, vertical tab, form feed).
    private static func trimmed(_ transcript: String, _ range: Range<String.Index>) -> Substring {
        let bytes = transcript.utf8
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, isBlank(bytes[lower]) { bytes.formIndex(after: &lower) }
        while lower < upper {
            let last = bytes.index(before: upper)
            guard isBlank(bytes[last]) else { break }
            upper = last
        }
        return transcript[lower..<upper]
    }

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C
    }
}
