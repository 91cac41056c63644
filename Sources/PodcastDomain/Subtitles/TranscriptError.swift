import CoreValues

/// Why a transcript could not be converted. Lines are 1-based, as an editor shows them; times are in
/// milliseconds. The descriptions are written for the person who will fix the file.
public enum TranscriptError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing but whitespace (or nothing at all).
    case empty
    /// No line holds a timestamp in any accepted layout.
    case noTimestamps
    /// Timestamps exist, but the transcript does not begin with one (a title, an SRT cue number, …).
    case unrecognizedFormat(line: Int, text: String)
    /// A line that is only a time, or a range, but not a valid one (`00:75.00`, `1:2:3`).
    case malformedTimestamp(line: Int, text: String)
    /// A turn starts more than `TurnParsing.crosstalkTolerance` (1 s) before the turn above it.
    case timeGoesBackwards(line: Int, time: Int, previousLine: Int, previousTime: Int)
    /// A time range whose end is not after its start.
    case rangeEndsBeforeStart(line: Int, start: Int, end: Int)
    /// Every timestamp is followed by nothing to show.
    case noText

    public var description: String {
        switch self {
        case .empty:
            return "The transcript is empty. Provide a transcript in one of these formats:\n"
                + TranscriptFormat.acceptedFormats
        case .noTimestamps:
            return "The transcript has no timestamps, so its format was not recognized. "
                + "Each turn must start with a timestamp, in one of these formats:\n" + TranscriptFormat.acceptedFormats
        case .unrecognizedFormat(let line, let text):
            return "Line \(line) (\(Self.quoted(text))) is not a timestamp, so the transcript's format was not "
                + "recognized. Remove any title or other lines before the first timestamp; a transcript must "
                + "start with a timestamp in one of these formats:\n" + TranscriptFormat.acceptedFormats
        case .malformedTimestamp(let line, let text):
            return "Line \(line) (\(Self.quoted(text))) looks like a timestamp but is not a valid one. "
                + "Correct it (minutes and seconds have two digits, below 60, except Zencastr's leading minutes) "
                + "to one of these formats:\n" + TranscriptFormat.acceptedFormats
        case .timeGoesBackwards(let line, let time, let previousLine, let previousTime):
            return "Line \(line): the time \(Self.clock(time)) is before \(Self.clock(previousTime)) on line "
                + "\(previousLine). Times must not go backwards; correct the timestamp on line \(line) "
                + "or on line \(previousLine)."
        case .rangeEndsBeforeStart(let line, let start, let end):
            return "Line \(line): the range ends at \(Self.clock(end)), which is not after its start "
                + "\(Self.clock(start)). Correct the end time on line \(line)."
        case .noText:
            return "The transcript has timestamps but no text to show. Add the spoken text after each timestamp."
        }
    }

    /// `HH:MM:SS.mmm`: the SRT layout with a decimal point, as transcripts write fractions.
    private static func clock(_ milliseconds: Int) -> String {
        SRTRendering.timestamp(milliseconds, fractionSeparator: ".")
    }

    /// The offending line, cut short so that a pasted essay does not flood the message.
    private static func quoted(_ text: String) -> String {
        let limit = 60
        return "\"" + (text.count > limit ? text.prefix(limit) + "…" : text) + "\""
    }
}

extension TranscriptError: ClassifiedError {
    public var kind: ErrorKind { .refused }
}
