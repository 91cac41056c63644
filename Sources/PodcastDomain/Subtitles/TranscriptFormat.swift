/// The transcript layouts Episodic reads. Detected from the first timestamp, never chosen by the user.
public enum TranscriptFormat: String, Sendable, Codable, CaseIterable {
    /// `12:34.56` (minutes may pass 59) or `1:02:03.45` alone on a line, then the speaker, then the text.
    case zencastr
    /// `00:12:34` alone on a line (no fraction), then the speaker, then the text.
    case timestampLines
    /// `00:12:34[.mmm] - 00:12:40[.mmm]` (or `–`, `—`, `-->`), the text on the same line or the next ones.
    case timeRanges
    /// SubRip subtitles: a cue number, `00:00:01,000 --> 00:00:04,000`, the text.
    case srt
    /// WebVTT subtitles: `WEBVTT`, then cues of a timing line and text (voices name speakers).
    case webVTT
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
        case .srt: "SRT subtitles: a cue number, then \"00:00:01,000 --> 00:00:04,000\", then the text"
        case .webVTT: "WebVTT subtitles: a first line \"WEBVTT\", then cues of \"00:01.000 --> 00:04.000\" and the text"
        }
    }

    /// The three accepted layouts, one per line, for messages that ask the user to fix the file.
    static var acceptedFormats: String {
        allCases.map { "  • " + $0.example }.joined(separator: "\n")
    }
}
