/// The files subtitles are exported as.
public enum SubtitleFileFormat: String, CaseIterable, Sendable {
    /// SubRip: what the episode stores, as converted.
    case srt
    /// WebVTT, for the web's `<track>` element and most players; speakers as `<v Name>` voices.
    case vtt
    /// The Podcasting 2.0 JSON transcript, the file an RSS `<podcast:transcript>` tag points to:
    /// segments with their speaker, start and end (seconds) and body.
    case json

    /// The format a file name asks for by its extension (`.srt`, `.vtt`, `.json`, any case); nil for others.
    public init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
        self.init(rawValue: fileName[fileName.index(after: dot)...].lowercased())
    }

    /// The file's bytes for `subtitles`.
    public func render(_ subtitles: Subtitles) -> [UInt8] {
        switch self {
        case .srt: Array(subtitles.srt.utf8)
        case .vtt: WebVTTRendering.render(subtitles.cues)
        case .json: TranscriptJSONRendering.render(subtitles.cues)
        }
    }
}
