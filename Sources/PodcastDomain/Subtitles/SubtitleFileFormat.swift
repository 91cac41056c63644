/// The files subtitles are exported as.
public enum SubtitleFileFormat: String, CaseIterable, Sendable {
    /// SubRip: what the episode stores, as converted.
    case srt
    /// WebVTT, for the web's `<track>` element and most players; speakers as `<v Name>` voices.
    case vtt
    /// The Podcasting 2.0 JSON transcript, the file an RSS `<podcast:transcript>` tag points to:
    /// segments with their speaker, start and end (seconds) and body.
    case json
    /// Plain text for show notes: each speaker's turn as a paragraph, no times.
    case txt

    /// The format a file name asks for by its extension (`.srt`, `.vtt`, `.json`, `.txt`, any case); nil for others.
    public init?(fileName: String) {
        guard let suffix = Self.fileExtension(of: fileName) else { return nil }
        self.init(rawValue: suffix.lowercased())
    }

    /// The extension of a file's name (`srt` of `ep3.srt`), nil when it has none.
    public static func fileExtension(of fileName: String) -> String? {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/"), fileName.index(after: dot) < fileName.endIndex
        else { return nil }
        return String(fileName[fileName.index(after: dot)...])
    }

    /// What people call it: `SRT`, `WebVTT`, `JSON transcript`, `plain text`.
    public var name: String {
        switch self {
        case .srt: "SRT"
        case .vtt: "WebVTT"
        case .json: "JSON transcript"
        case .txt: "plain text"
        }
    }

    /// The file's bytes for `subtitles`.
    public func render(_ subtitles: Subtitles) -> [UInt8] {
        switch self {
        case .srt: Array(subtitles.srt.utf8)
        case .vtt: WebVTTRendering.render(subtitles.cues)
        case .json: TranscriptJSONRendering.render(subtitles.cues)
        case .txt: PlainTranscriptRendering.render(subtitles.cues)
        }
    }
}
