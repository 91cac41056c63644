/// The subtitle conventions the conversion follows (SUBTITLES.md: broadcast style, two short lines,
/// read comfortably). Times are in milliseconds.
public enum SubtitleConventions {
    /// Display columns per displayed line (``DisplayWidth``: East Asian wide characters count 2).
    public static let maximumLineLength = 42
    /// Displayed lines per cue.
    public static let maximumLinesPerCue = 2
    /// The shortest time a cue is shown: 5/6 of a second, 20 frames at 24 per second.
    public static let minimumCueDuration = 833
    /// The longest time a cue is shown; a speaker who pauses longer gets a gap, not a cue that hangs.
    public static let maximumCueDuration = 7_000
    /// The fastest comfortable reading speed, in characters (display columns) per second: a cue is
    /// given at least the time its text needs at this speed, when the lag below allows it.
    public static let maximumCharactersPerSecond = 20
    /// Reading speed that sizes the last cues, which have no next timestamp to end them.
    public static let readingCharactersPerSecond = 15
    /// Below this speed, in characters per second, nobody speaks: a turn whose time is longer than its
    /// text at this speed is followed by a silence, which its cues leave empty.
    public static let slowestSpeechCharactersPerSecond = 10
    /// How far a cue may run behind its speech to be readable, after a turn that had too little time
    /// (fast speech, crosstalk); later cues catch up by taking less of their own spare time.
    public static let maximumLag = 2_500
}
