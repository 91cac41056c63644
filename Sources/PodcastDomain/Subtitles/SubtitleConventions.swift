/// The subtitle conventions the conversion follows (broadcast style: two short lines, read comfortably).
public enum SubtitleConventions {
    /// Display columns per displayed line (``DisplayWidth``: East Asian wide characters count 2).
    public static let maximumLineLength = 42
    /// Displayed lines per cue.
    public static let maximumLinesPerCue = 2
    /// Reading speed that sizes the last cues, which have no next timestamp to end them.
    public static let readingCharactersPerSecond = 15
    /// Bounds of a last cue's duration, in milliseconds: long enough to notice, short enough not to linger.
    public static let lastCueDurations = 1_000...7_000
}
