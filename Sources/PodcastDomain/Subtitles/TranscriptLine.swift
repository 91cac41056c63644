/// One line of a transcript, trimmed of surrounding spaces and tabs, with its 1-based number for errors.
struct TranscriptLine {
    var number: Int
    var text: Substring

    /// Splits at `\n`, `\r\n` or a lone `\r`, after dropping a UTF-8 byte-order mark. Line numbers count
    /// every line, blank ones included, as an editor does.
    static func split(_ transcript: String) -> [TranscriptLine] {
        let bytes = transcript.utf8
        var index = bytes.startIndex
        if bytes.starts(with: byteOrderMark) { index = bytes.index(index, offsetBy: byteOrderMark.count) }
        var lines: [TranscriptLine] = []
        lines.reserveCapacity(transcript.utf8.count / 40)
        var lineStart = index
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == lineFeed || byte == carriageReturn else {
                bytes.formIndex(after: &index)
                continue
            }
            lines.append(TranscriptLine(number: lines.count + 1, text: trimmed(transcript, lineStart..<index)))
            bytes.formIndex(after: &index)
            if byte == carriageReturn, index < bytes.endIndex, bytes[index] == lineFeed {
                bytes.formIndex(after: &index)
            }
            lineStart = index
        }
        if lineStart < bytes.endIndex {
            lines.append(TranscriptLine(number: lines.count + 1, text: trimmed(transcript, lineStart..<bytes.endIndex)))
        }
        return lines
    }

    var isBlank: Bool { text.isEmpty }

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
