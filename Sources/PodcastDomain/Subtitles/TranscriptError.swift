import CoreValues

/// Why a transcript could not be converted. Lines are 1-based, as an editor shows them; times are in
/// milliseconds. The descriptions are written for the person who will fix the file.
public enum TranscriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Nothing but whitespace (or nothing at all).
    case empty
    /// No line holds a timestamp in any accepted layout.
    case noTimestamps
    /// Timestamps exist, but more than `FormatDetection.headerLimit` lines stand above the first one.
    case unrecognizedFormat(line: Int, text: String)
    /// Every timestamp is followed by nothing to show.
    case noText
    /// Converting under `--strict`, and the transcript has defects that would otherwise be read past.
    case refusedWarnings([TranscriptWarning])

    public var description: String {
        switch self {
        case .empty:
            return "The transcript is empty. Provide a transcript in one of these formats:\n"
                + TranscriptFormat.acceptedFormats
        case .noTimestamps:
            return "The transcript has no timestamps, so its format was not recognized. "
                + "Each turn must start with a timestamp, in one of these formats:\n" + TranscriptFormat.acceptedFormats
        case .unrecognizedFormat(let line, let text):
            return "Line \(line) (\(Self.quoted(text))) is not a timestamp, and no valid one follows within \(FormatDetection.headerLimit) "
                + "lines, so the transcript's format was not recognized. A transcript must start with a "
                + "timestamp (a title of a few lines above it is skipped) in one of these formats:\n"
                + TranscriptFormat.acceptedFormats
        case .noText:
            return "The transcript has timestamps but no text to show. Add the spoken text after each timestamp."
        case .refusedWarnings(let warnings):
            return "The transcript has \(warnings.count == 1 ? "a defect" : "defects") that --strict refuses:\n"
                + warnings.map { "  • \($0)" }.joined(separator: "\n")
                + "\nCorrect the file, or leave out --strict to accept it as described."
        }
    }

    private static func quoted(_ text: String) -> String { TranscriptWarning.quoted(text[...]) }
}

extension TranscriptError: ClassifiedError {
    public var kind: ErrorKind { .refused }
}
