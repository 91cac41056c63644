/// Finds a transcript's layout from its first non-blank line, which must be a timestamp, a WebVTT
/// header, or an SRT cue number followed by its timing line.
enum FormatDetection {
    /// The layout, or why there is none: no lines, no timestamps anywhere, or something before the first.
    static func format(of lines: [TranscriptLine]) throws(TranscriptError) -> TranscriptFormat {
        guard let firstIndex = lines.firstIndex(where: { !$0.isBlank }) else { throw .empty }
        let first = lines[firstIndex]
        if SubtitleFileParsing.isVTTMetadata(first.text), first.text.hasPrefix("WEBVTT") { return .webVTT }
        // SRT: a cue number, then its timing line.
        if Int(first.text) != nil, firstIndex + 1 < lines.count, lines[firstIndex + 1].text.contains("-->"),
            SubtitleFileParsing.times(lines[firstIndex + 1].text) != nil
        {
            return .srt
        }
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
