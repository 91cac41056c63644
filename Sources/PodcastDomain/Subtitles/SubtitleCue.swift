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
    /// The displayed lines; the first cue of a turn with a speaker begins with `Name: `.
    public var lines: [String]

    public init(number: Int, start: Int, end: Int, lines: [String]) {
        self.number = number
        self.start = start
        self.end = end
        self.lines = lines
    }
}
