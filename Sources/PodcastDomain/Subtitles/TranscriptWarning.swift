import CoreValues

/// A small defect in a transcript that the conversion read past, with what it assumed: named by line
/// (1-based, as an editor shows it) and worded for the person who may want to fix the file. Recorded
/// with the transcript when it is imported, so that the episode can list them; `--strict` refuses them.
public struct TranscriptWarning: Equatable, Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Kind: String, Equatable, Hashable, Sendable, Codable, CaseIterable {
        /// Lines above the first timestamp (a title, a header) were skipped.
        case header
        /// A timestamp earlier than the one above it: kept where it appears, at the time above.
        case timeOutOfOrder
        /// A line that looks like a damaged timestamp was read as one.
        case damagedTimestamp
        /// A time range ending before it starts was read without its end.
        case rangeEnd
        /// Text of an SRT or WebVTT file outside any cue was added to the cue above.
        case textOutsideCue
        /// Control characters (NUL, ESC, …) were removed.
        case controlCharacters
        /// More warnings than are listed, summed up in one.
        case more
    }

    public var kind: Kind
    public var line: Int
    /// What was found and what was assumed.
    public var message: String

    public init(kind: Kind, line: Int, message: String) {
        self.kind = kind
        self.line = line
        self.message = message
    }

    public var description: String { kind == .more ? message : "line \(line): \(message)" }

    /// At most this many are kept; the rest are counted in one ``Kind/more`` warning.
    public static let limit = 20
}

extension TranscriptWarning {
    static func header(from first: Int, to last: Int, text: Substring) -> TranscriptWarning {
        let lines = first == last ? "this line" : "lines \(first)–\(last)"
        return TranscriptWarning(kind: .header, line: first, message:
            "\(quoted(text)) is above the first timestamp; \(lines) skipped as a title.")
    }

    static func timeOutOfOrder(line: Int, time: Int, previousLine: Int, previousTime: Int) -> TranscriptWarning {
        TranscriptWarning(kind: .timeOutOfOrder, line: line, message:
            "\(clock(time)) is before \(clock(previousTime)) on line \(previousLine); kept where it is, at \(clock(previousTime)).")
    }

    static func damagedTimestamp(line: Int, text: Substring, readAs time: Int, exact: Bool) -> TranscriptWarning {
        TranscriptWarning(kind: .damagedTimestamp, line: line, message: exact
            ? "\(quoted(text)) looks like a damaged timestamp; read as \(clock(time))."
            : "\(quoted(text)) looks like a damaged timestamp; read as a new turn at \(clock(time)), the time above it.")
    }

    static func timestampWithSpeaker(line: Int, time: Int, speaker: Substring) -> TranscriptWarning {
        TranscriptWarning(kind: .damagedTimestamp, line: line, message:
            "a timestamp and \(quoted(speaker)) on the same line; read as \(clock(time)) and the speaker \(quoted(speaker)).")
    }

    static func rangeEnd(line: Int, start: Int, end: Int) -> TranscriptWarning {
        TranscriptWarning(kind: .rangeEnd, line: line, message:
            "the range ends at \(clock(end)), not after its start \(clock(start)); read without its end.")
    }

    static func textOutsideCue(line: Int, text: Substring) -> TranscriptWarning {
        TranscriptWarning(kind: .textOutsideCue, line: line, message:
            "\(quoted(text)) has no timing line; added to the cue above.")
    }

    static func controlCharacters(line: Int, count: Int, first: Unicode.Scalar) -> TranscriptWarning {
        TranscriptWarning(kind: .controlCharacters, line: line, message: count == 1
            ? "a control character, \(ControlCharacter.name(first)), removed."
            : "\(count) control characters (the first \(ControlCharacter.name(first))) removed.")
    }

    static func more(_ count: Int) -> TranscriptWarning {
        TranscriptWarning(kind: .more, line: 0, message: "… and \(count) more like these.")
    }

    /// `HH:MM:SS.mmm`: the SRT layout with a decimal point, as transcripts write fractions.
    static func clock(_ milliseconds: Int) -> String {
        SRTRendering.timestamp(milliseconds, fractionSeparator: ".")
    }

    /// The line in quotes, cut short so that a pasted essay does not flood the message.
    static func quoted(_ text: Substring) -> String {
        let limit = 60
        return "\"" + (text.count > limit ? text.prefix(limit) + "…" : text) + "\""
    }
}

/// The warnings of one conversion, in the order of their lines, at most `TranscriptWarning.limit`.
struct TranscriptWarnings {
    private(set) var list: [TranscriptWarning] = []
    private var dropped = 0

    mutating func add(_ warning: TranscriptWarning) {
        if list.count < TranscriptWarning.limit { list.append(warning) } else { dropped += 1 }
    }

    /// The warnings, sorted by line, with the count of those left out.
    var all: [TranscriptWarning] {
        let sorted = list.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
        return dropped > 0 ? sorted + [.more(dropped)] : sorted
    }
}
