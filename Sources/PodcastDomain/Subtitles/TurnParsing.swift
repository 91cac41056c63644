/// Reads the turns of a transcript whose layout is known.
///
/// Timestamp layouts (Zencastr, timestamp lines): a time alone on a line starts a turn; the first
/// non-blank line after it is the speaker where ``SpeakerLayout`` says so, every other line is speech. A line
/// that looks like a time range is speech there. Time ranges: a range starts a turn whose text follows
/// on the same line and the next ones; a time alone also starts a turn, one without a given end.
/// Blank lines never matter, and a turn may hold no words (it is kept: its time ends the turn before).
///
/// Starts must not go backwards, with one allowance: a start up to `crosstalkTolerance` before the
/// previous turn's is read as starting with it. Zencastr writes such steps back when two people talk
/// at once (the fixture has `03:07.99` then `03:07.96`); the turns then share their time.
enum TurnParsing {
    /// Milliseconds a turn may start before the previous one and still be read as simultaneous speech.
    static let crosstalkTolerance = 1_000

    static func turns(in lines: [TranscriptLine], format: TranscriptFormat) throws(TranscriptError)
        -> [TranscriptTurn]
    {
        if format == .srt || format == .webVTT { return try SubtitleFileParsing.turns(in: lines, format: format) }
        var turns: [TranscriptTurn] = []
        turns.reserveCapacity(lines.count / 3)
        var expectsSpeaker = false
        let layout = SpeakerLayout(lines)
        for line in lines {
            switch LineKind(line.text) {
            case .blank:
                continue
            case .malformedTime:
                throw .malformedTimestamp(line: line.number, text: String(line.text))
            case .time(let time):
                try start(&turns, line: line.number, start: time.milliseconds, end: nil)
                expectsSpeaker = format != .timeRanges
            case .range(let start, let end, let text) where format == .timeRanges:
                guard end.milliseconds > start.milliseconds else {
                    throw .rangeEndsBeforeStart(line: line.number, start: start.milliseconds, end: end.milliseconds)
                }
                try self.start(&turns, line: line.number, start: start.milliseconds, end: end.milliseconds)
                turns[turns.count - 1].appendWords(of: text)
            case .range, .text:
                guard !turns.isEmpty else {
                    throw .unrecognizedFormat(line: line.number, text: String(line.text))
                }
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
    /// further back is an error.
    static func start(_ turns: inout [TranscriptTurn], line: Int, start: Int, end: Int?)
        throws(TranscriptError)
    {
        var start = start, startLine = line
        if let previous = turns.last, start < previous.start {
            guard previous.start - start <= crosstalkTolerance else {
                throw .timeGoesBackwards(
                    line: line, time: start, previousLine: previous.startLine, previousTime: previous.start)
            }
            start = previous.start
            startLine = previous.startLine
        }
        turns.append(
            TranscriptTurn(line: line, start: start, startLine: startLine, end: end, speaker: nil, words: []))
    }
}
