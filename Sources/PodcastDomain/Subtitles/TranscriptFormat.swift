/// The transcript layouts Episodic reads. Detected from the first timestamp, never chosen by the user.
public enum TranscriptFormat: String, Sendable, Codable, CaseIterable {
    /// `12:34.56` (minutes may pass 59) or `1:02:03.45` alone on a line, then the speaker, then the text.
    case zencastr
    /// `00:12:34` alone on a line (no fraction), then the speaker, then the text.
    case timestampLines
    /// `00:12:34[.mmm] - 00:12:40[.mmm]` (or `–`, `—`, `-->`), the text on the same line or the next ones.
    case timeRanges
}

extension TranscriptFormat {
    /// How a person would write one turn in this format; used in error messages.
    var example: String {
        switch self {
        case .zencastr: "Zencastr: a line \"12:34.56\" (or \"1:02:03.45\"), then the speaker's name, then the text"
        case .timestampLines: "Timestamp lines: a line \"00:12:34\", then the speaker's name, then the text"
        case .timeRanges:
            "Time ranges: \"00:12:34 - 00:12:40 text\" (or \"–\", \"-->\"; \".250\" milliseconds allowed), "
                + "the text on the same line or the next"
        }
    }

    /// The three accepted layouts, one per line, for messages that ask the user to fix the file.
    static var acceptedFormats: String {
        allCases.map { "  • " + $0.example }.joined(separator: "\n")
    }
}
