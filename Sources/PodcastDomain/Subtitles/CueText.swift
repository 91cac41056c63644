/// The text of one cue before it is timed.
struct CueText {
    /// At most `SubtitleConventions.maximumLinesPerCue` lines of at most
    /// `SubtitleConventions.maximumLineLength` display columns.
    var lines: [String]
    /// The spoken text's length that shares out the turn's time: each word's display columns plus one for the
    /// space after it. The `Name: ` prefix weighs nothing, since it is not spoken.
    var weight: Int
}
