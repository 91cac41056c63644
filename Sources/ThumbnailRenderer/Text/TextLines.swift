/// The text's own lines, as its line breaks make them.
enum TextLines {
    /// `text` split at its line breaks ("\n", "\r\n" and "\r" alike, and Unicode's other line separators),
    /// each line without the white space at its ends. Blank lines between lines with text are kept (they
    /// keep their room); those before the first and after the last are dropped, since they would show
    /// nothing. Empty when the text is blank.
    static func split(_ text: String) -> [Substring] {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(trimmed)
        guard let first = lines.firstIndex(where: { !$0.isEmpty }), let last = lines.lastIndex(where: { !$0.isEmpty }) else {
            return []
        }
        return Array(lines[first...last])
    }

    private static func trimmed(_ line: Substring) -> Substring {
        guard let start = line.firstIndex(where: { !$0.isWhitespace }), let end = line.lastIndex(where: { !$0.isWhitespace })
        else { return line[line.endIndex...] }
        return line[start...end]
    }
}
