/// Finds a transcript's layout from its first timestamp: a timestamp line, a WebVTT header, or an SRT
/// cue number followed by its timing line. Lines above it (a title, a header; at most
/// `headerLimit` of them) are skipped with a warning.
enum FormatDetection {
    /// Non-blank lines that may stand above the first timestamp; more, and the file is not a transcript.
    static let headerLimit = 20

    /// The layout and the index of the line it starts at, or why there is none: no lines, no
    /// timestamps anywhere, or too much before the first.
    static func format(of lines: [TranscriptLine], warnings: inout TranscriptWarnings) throws(TranscriptError)
        -> (format: TranscriptFormat, start: Int)
    {
        guard let first = lines.first else { throw .empty }
        var skipped = 0
        for index in lines.indices {
            if let format = format(at: index, of: lines) {
                if index > 0 {
                    warnings.add(.header(from: first.number, to: lines[index - 1].number, text: first.text))
                }
                return (format, index)
            }
            skipped += 1
            if skipped > headerLimit { break }
        }
        let hasTimestamps = lines.contains { line in
            switch LineKind(line.text) {
            case .range, .time, .malformedTime: true
            case .blank, .text: false
            }
        }
        guard hasTimestamps else { throw .noTimestamps }
        throw .unrecognizedFormat(line: first.number, text: String(first.text))
    }

    /// The layout a transcript starting at `index` is in, if that line starts one.
    private static func format(at index: Int, of lines: [TranscriptLine]) -> TranscriptFormat? {
        let line = lines[index].text
        if line.hasPrefix("WEBVTT"), SubtitleFileParsing.isVTTMetadata(line) { return .webVTT }
        // SRT: a cue number, then its timing line.
        if Int(line) != nil, index + 1 < lines.count, lines[index].isFollowed(by: lines[index + 1]),
           SubtitleFileParsing.times(lines[index + 1].text) != nil
        {
            return .srt
        }
        switch LineKind(line) {
        case .range: return .timeRanges
        case .time(let time): return time.hasFraction ? .zencastr : .timestampLines
        case .malformedTime, .blank, .text: return nil
        }
    }
}
