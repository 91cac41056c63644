/// Finds a transcript's layout from its first non-blank line, which must be a timestamp.
enum FormatDetection {
    /// The layout, or why there is none: no lines, no timestamps anywhere, or something before the first.
    static func format(of lines: [TranscriptLine]) throws(TranscriptError) -> TranscriptFormat {
        guard let first = lines.first(where: { !$0.isBlank }) else { throw .empty }
        switch LineKind(first.text) {
        case .range: return .timeRanges
        case .time(let time): return time.hasFraction ? .zencastr : .timestampLines
        case .malformedTime: throw .malformedTimestamp(line: first.number, text: String(first.text))
        case .blank, .text:
            let hasTimestamps = lines.contains { line in
                switch LineKind(line.text) {
                case .range, .time, .malformedTime: true
                case .blank, .text: false
                }
            }
            guard hasTimestamps else { throw .noTimestamps }
            throw .unrecognizedFormat(line: first.number, text: String(first.text))
        }
    }
}
