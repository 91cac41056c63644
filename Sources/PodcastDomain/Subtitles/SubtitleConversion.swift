/// Transcript text to SRT subtitles: a pure function of the text.
public enum SubtitleConversion {
    /// Detects the layout from the first timestamp, reads the turns, wraps and times the cues, and
    /// renders them. See `TurnParsing`, `TurnGroup`, `CueBreaking` and `CueTiming` for the rules.
    ///
    /// Throws when the text is empty, has no timestamps, does not start with one, holds a malformed
    /// one, goes back in time, or has nothing to show.
    public static func convert(_ transcript: String) throws(TranscriptError) -> Subtitles {
        let lines = TranscriptLine.split(transcript)
        let format = try FormatDetection.format(of: lines)
        let turns = try TurnParsing.turns(in: lines, format: format)
        let cues = CueTiming.cues(for: turns)
        guard !cues.isEmpty else { throw .noText }
        return Subtitles(format: format, cues: cues)
    }
}
