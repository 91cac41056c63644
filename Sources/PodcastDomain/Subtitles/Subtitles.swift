/// A converted transcript: the cues and their SRT text, which always agree, and what was read past.
public struct Subtitles: Equatable, Sendable {
    /// The layout the transcript was detected to be in.
    public var format: TranscriptFormat
    public var cues: [SubtitleCue]
    /// The cues as an SRT file; see `SRTRendering` for the exact layout.
    public var srt: String
    /// The transcript's small defects and what was assumed for each, by line; empty for a clean one.
    public var warnings: [TranscriptWarning]

    /// Renders `cues`, so that `srt` cannot disagree with them.
    public init(format: TranscriptFormat, cues: [SubtitleCue], warnings: [TranscriptWarning] = []) {
        self.format = format
        self.cues = cues
        self.srt = SRTRendering.render(cues)
        self.warnings = warnings
    }
}
