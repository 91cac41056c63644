/// Reads the turns of a transcript whose layout is known.
///
/// Timestamp layouts (Zencastr, timestamp lines): a time alone on a line starts a turn; the first
/// non-blank line after it is the speaker where ``SpeakerLayout`` says so, every other line is speech. A line
/// that looks like a time range is speech there. Time ranges: a range starts a turn whose text follows
/// on the same line and the next ones; a time alone also starts a turn, one without a given end.
/// Blank lines never matter, and a turn may hold no words (it is kept: its time ends the turn before).
///
/// Starts should not go backwards. A start up to `crosstalkTolerance` before the previous turn's is
/// read as starting with it: Zencastr writes such steps back when two people talk at once (the
/// fixture has `03:07.99` then `03:07.96`). One further back is kept where it appears, at the time
/// above, with a warning; so are the other small defects (``TranscriptWarning``): a damaged timestamp
/// (`00:75.00`, `[00:08.36]`, `00:08.36 Frank`, `8.36`) starts a turn, a range ending before it starts
/// loses its end.
enum TurnParsing {
    /// Milliseconds a turn may start before the previous one and still be read as simultaneous speech.
    static let crosstalkTolerance = 1_000

    static func turns(in lines: ArraySlice<TranscriptLine>, format: TranscriptFormat, warnings: inout TranscriptWarnings)
        -> [TranscriptTurn]
    {
        if format == .srt || format == .webVTT {
            return SubtitleFileParsing.turns(in: lines, format: format, warnings: &warnings)
        }
        var turns: [TranscriptTurn] = []
        turns.reserveCapacity(lines.count / 3)
        var expectsSpeaker = false
        let layout = SpeakerLayout(lines, format: format)
        for line in lines {
            switch LineKind(line.text) {
            case .blank:
                continue
            case .malformedTime:
                let time = turns.last?.start ?? 0
                warnings.add(.damagedTimestamp(line: line.number, text: line.text, readAs: time, exact: false))
                start(&turns, line: line.number, start: time, end: nil, warnings: &warnings)
                expectsSpeaker = format != .timeRanges
            case .time(let time):
                start(&turns, line: line.number, start: time.milliseconds, end: nil, warnings: &warnings)
                expectsSpeaker = format != .timeRanges
            case .range(let start, let end, let text) where format == .timeRanges:
                var end: Int? = end.milliseconds
                if let given = end, given <= start.milliseconds {
                    warnings.add(.rangeEnd(line: line.number, start: start.milliseconds, end: given))
                    end = nil
                }
                self.start(&turns, line: line.number, start: start.milliseconds, end: end, warnings: &warnings)
                turns[turns.count - 1].appendWords(of: text)
            case .range, .text:
                if format != .timeRanges, let damaged = DamagedTimestamp(line.text, format: format) {
                    let time = damaged.time ?? turns.last?.start ?? 0
                    start(&turns, line: line.number, start: time, end: nil, warnings: &warnings)
                    if let speaker = damaged.speaker {
                        turns[turns.count - 1].speaker = speaker
                        warnings.add(.timestampWithSpeaker(line: line.number, time: time, speaker: speaker))
                    } else {
                        warnings.add(.damagedTimestamp(line: line.number, text: line.text, readAs: time, exact: damaged.time != nil))
                    }
                    expectsSpeaker = damaged.speaker == nil
                    continue
                }
                // `FormatDetection` starts the lines at a timestamp, so there is a turn.
                guard !turns.isEmpty else { continue }
                if expectsSpeaker {
                    expectsSpeaker = false
                    if let name = layout.speaker(line.text, turn: turns.count - 1) {
                        turns[turns.count - 1].speaker = name
                        continue
                    }
                }
                turns[turns.count - 1].appendWords(of: line.text)
            }
        }
        return turns
    }

    /// Appends an empty turn. A start slightly before the previous turn's becomes that start; one
    /// further back too, with a warning.
    static func start(_ turns: inout [TranscriptTurn], line: Int, start: Int, end: Int?, warnings: inout TranscriptWarnings) {
        var start = start, startLine = line
        if let previous = turns.last, start < previous.start {
            if previous.start - start > crosstalkTolerance {
                warnings.add(.timeOutOfOrder(line: line, time: start, previousLine: previous.startLine, previousTime: previous.start))
            }
            start = previous.start
            startLine = previous.startLine
        }
        turns.append(
            TranscriptTurn(line: line, start: start, startLine: startLine, end: end, speaker: nil, words: []))
    }
}

/// A line of a timestamp layout that is meant as a timestamp but damaged: `[00:08.36]` or
/// `(00:00:10)` (the time is exact), `00:08.36 Frank` (a time of the layout's shape with a speaker's
/// name after it), or `8.36` in Zencastr (seconds without minutes: the time is not known).
struct DamagedTimestamp {
    /// Milliseconds; nil when the line does not say.
    var time: Int?
    /// The speaker's name that follows the time on its line.
    var speaker: Substring?

    init?(_ line: Substring, format: TranscriptFormat) {
        let bytes = line.utf8
        if let first = bytes.first, let last = bytes.last,
           (first == UInt8(ascii: "[") && last == UInt8(ascii: "]")) || (first == UInt8(ascii: "(") && last == UInt8(ascii: ")")),
           case .time(let time) = LineKind(line.dropFirst().dropLast())
        {
            (self.time, speaker) = (time.milliseconds, nil)
            return
        }
        if let blank = bytes.firstIndex(where: TranscriptLine.isBlank),
           case .time(let time) = LineKind(line[..<blank]), time.hasFraction == (format == .zencastr),
           line[..<blank].utf8.filter({ $0 == UInt8(ascii: ":") }).count == (format == .zencastr ? 1 : 2)
        {
            var rest = line[blank...]
            while let byte = rest.utf8.first, TranscriptLine.isBlank(byte) { rest = rest.dropFirst() }
            guard let speaker = SpeakerName.from(rest) else { return nil }
            (self.time, self.speaker) = (time.milliseconds, speaker)
            return
        }
        if format == .zencastr, Self.isSecondsAndHundredths(bytes) {
            (self.time, speaker) = (nil, nil)
            return
        }
        return nil
    }

    /// `8.36` or `08,36`: one or two digits, a point or comma, two digits.
    private static func isSecondsAndHundredths(_ bytes: Substring.UTF8View) -> Bool {
        let digits = bytes.map { ClockTime.digit($0) != nil }
        guard (4...5).contains(digits.count) else { return false }
        let separator = digits.count - 3
        let mark = bytes[bytes.index(bytes.startIndex, offsetBy: separator)]
        return (mark == UInt8(ascii: ".") || mark == UInt8(ascii: ","))
            && digits.enumerated().allSatisfy { $0.offset == separator || $0.element }
    }
}
