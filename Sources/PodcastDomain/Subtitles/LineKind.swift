/// What a transcript line is, judged by itself. Most lines are text and are rejected at their first byte.
enum LineKind {
    case blank
    /// A time alone on the line: starts a Zencastr or timestamp-lines turn.
    case time(ClockTime)
    /// `start <sep> end`, optionally followed by text on the same line.
    case range(start: ClockTime, end: ClockTime, text: Substring)
    /// Only a time or a range by its shape (digits and colons), but not a valid one.
    case malformedTime
    case text

    init(_ line: Substring) {
        guard !line.isEmpty else { self = .blank; return }
        let bytes = line.utf8
        let first = Self.timeToken(bytes, from: bytes.startIndex)
        guard !first.isEmpty else { self = .text; return }
        guard first.endIndex < bytes.endIndex else {
            if let time = ClockTime(first) {
                self = .time(time)
            } else {
                self = Self.looksLikeTime(first) ? .malformedTime : .text
            }
            return
        }
        guard let separatorEnd = Self.separatorEnd(bytes, from: first.endIndex) else { self = .text; return }
        let second = Self.timeToken(bytes, from: separatorEnd)
        let textStart = second.endIndex
        guard textStart == bytes.endIndex || TranscriptLine.isBlank(bytes[textStart]),
              Self.looksLikeTime(first), Self.looksLikeTime(second)
        else { self = .text; return }
        guard let start = ClockTime(first), let end = ClockTime(second) else { self = .malformedTime; return }
        var text = line[textStart...]
        while let byte = text.utf8.first, TranscriptLine.isBlank(byte) { text = text.dropFirst() }
        self = .range(start: start, end: end, text: text)
    }

    /// The longest run of digits, `:`, `.` and `,` from `index`; empty unless it starts with a digit.
    private static func timeToken(_ bytes: Substring.UTF8View, from index: Substring.UTF8View.Index)
        -> Substring.UTF8View
    {
        var end = index
        guard end < bytes.endIndex, ClockTime.digit(bytes[end]) != nil else { return bytes[index..<index] }
        while end < bytes.endIndex {
            let byte = bytes[end]
            guard ClockTime.digit(byte) != nil || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ",")
            else { break }
            bytes.formIndex(after: &end)
        }
        return bytes[index..<end]
    }

    /// A token meant as a time: a digit at both ends and a colon inside. `3:1` is one, `8.30` is not.
    private static func looksLikeTime(_ token: Substring.UTF8View) -> Bool {
        guard let first = token.first, let last = token.last else { return false }
        return ClockTime.digit(first) != nil && ClockTime.digit(last) != nil && token.contains(UInt8(ascii: ":"))
    }

    /// After optional blanks, one of `-->`, `-`, `–` (en dash) or `—` (em dash), then optional blanks;
    /// returns where the second time should begin.
    private static func separatorEnd(_ bytes: Substring.UTF8View, from start: Substring.UTF8View.Index)
        -> Substring.UTF8View.Index?
    {
        var index = start
        skipBlanks(bytes, &index)
        let rest = bytes[index...]
        let length: Int
        if rest.starts(with: arrow) {
            length = arrow.count
        } else if rest.starts(with: enDash) || rest.starts(with: emDash) {
            length = enDash.count
        } else if rest.first == UInt8(ascii: "-") {
            length = 1
        } else {
            return nil
        }
        index = bytes.index(index, offsetBy: length)
        skipBlanks(bytes, &index)
        return index
    }

    private static func skipBlanks(_ bytes: Substring.UTF8View, _ index: inout Substring.UTF8View.Index) {
        while index < bytes.endIndex, TranscriptLine.isBlank(bytes[index]) { bytes.formIndex(after: &index) }
    }

    private static let arrow = Array("-->".utf8)
    private static let enDash = Array("–".utf8)
    private static let emDash = Array("—".utf8)
}
