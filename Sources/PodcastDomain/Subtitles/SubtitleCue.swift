/// One SRT cue. Invariants (kept by `SubtitleConversion`): `start < end`, at most
/// `SubtitleConventions.maximumLinesPerCue` lines of at most `SubtitleConventions.maximumLineLength`
/// display columns each, and a cue never ends after the next one starts.
public struct SubtitleCue: Equatable, Sendable {
    /// 1-based position in the file.
    public var number: Int
    /// Milliseconds from the start of the episode.
    public var start: Int
    /// Milliseconds from the start of the episode; exclusive.
    public var end: Int
    /// The displayed lines. The first cue of a turn with a speaker begins with `Name: `; a two-speaker
    /// cue has one line per speaker, each beginning with `- `.
    public var lines: [String]
    /// Who says the cue's words, in order, as data: for exports that carry speakers apart from the text.
    public var voices: [SubtitleVoice]

    public init(number: Int, start: Int, end: Int, lines: [String], voices: [SubtitleVoice]) {
        self.number = number
        self.start = start
        self.end = end
        self.lines = lines
        self.voices = voices
    }
}

/// Words of one speaker in a cue.
public struct SubtitleVoice: Equatable, Sendable {
    /// The turn's speaker; nil when the transcript names none.
    public var speaker: String?
    /// The spoken words, joined by single spaces, without the `Name: ` or `- ` prefixes.
    public var text: String

    public init(speaker: String?, text: String) {
        self.speaker = speaker
        self.text = text
    }
}
