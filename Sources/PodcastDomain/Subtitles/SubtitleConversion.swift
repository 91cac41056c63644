/// Transcript text to SRT subtitles: a pure function of the text.
public enum SubtitleConversion {
    /// Detects the layout from the first timestamp, reads the turns, breaks and times the cues, and
    /// renders them. See `TurnParsing`, `TurnGroup`, `CueBreaking` and `CueTiming` for the rules.
    ///
    /// Small defects are read past, each with a ``TranscriptWarning`` in ``Subtitles/warnings``; with
    /// `strict`, any of them refuses the transcript instead (``TranscriptError/refusedWarnings(_:)``).
    /// Throws when the text is empty, has no timestamps, has more than a title above the first one, or
    /// has nothing to show.
    public static func convert(_ transcript: String, strict: Bool = false) throws(TranscriptError) -> Subtitles {
        let (format, turns, warnings) = try read(transcript, strict: strict)
        return Subtitles(format: format, cues: CueTiming.cues(for: turns), warnings: warnings)
    }

    /// What ``convert(_:strict:)`` would read past, without breaking and timing the cues: for an
    /// import, which refuses what convert would refuse. Throws as convert does.
    public static func check(_ transcript: String, strict: Bool = false) throws(TranscriptError) -> [TranscriptWarning] {
        try read(transcript, strict: strict).warnings
    }

    /// The layout, the turns and the warnings; refuses a transcript with nothing to show.
    private static func read(_ transcript: String, strict: Bool) throws(TranscriptError)
        -> (format: TranscriptFormat, turns: [TranscriptTurn], warnings: [TranscriptWarning])
    {
        var warnings = TranscriptWarnings()
        let text = ControlCharacterCleaning.cleaned(transcript, warnings: &warnings)
        let lines = TranscriptLine.split(text)
        let (format, start) = try FormatDetection.format(of: lines, warnings: &warnings)
        let turns = TurnParsing.turns(in: lines[start...], format: format, warnings: &warnings)
        if strict, !warnings.all.isEmpty { throw .refusedWarnings(warnings.all) }
        // Every turn with words gives at least one cue.
        guard turns.contains(where: { !$0.words.isEmpty }) else { throw .noText }
        return (format, turns, warnings.all)
    }
}
