/// The text of one cue before it is timed.
struct CueText {
    /// At most `SubtitleConventions.maximumLinesPerCue` lines of at most
    /// `SubtitleConventions.maximumLineLength` display columns.
    var lines: [String]
    /// Who says what, in order: one voice, or two in a two-speaker cue.
    var voices: [SubtitleVoice]

    /// What a viewer reads, in display columns: the lines, names and dashes included, joined by spaces.
    /// Time is shared and reading speed measured by it.
    var weight: Int {
        lines.reduce(lines.count - 1) { $0 + DisplayWidth.columns(of: $1) }
    }
}
