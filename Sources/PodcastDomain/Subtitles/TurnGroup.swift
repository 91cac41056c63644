/// Turns shown in one stretch of time: a turn, and the turns that ride with it.
///
/// Recording services stamp each speaker's turn, so crosstalk arrives as turns that start before the
/// turn above has been said. Two kinds ride with the turn they interrupt:
/// - turns that start at the same time (crosstalk moved up to the start above, or equal timestamps);
/// - one interjection by another speaker (`Oh.`, `Yeah, right.`: up to `interjectionWidth` columns)
///   that starts while the turn has had less time than its text needs at
///   `maximumCharactersPerSecond`. (A second one keeps its own time: riding too, it would be placed
///   by the sharing of the group's time rather than by its stamp.)
/// The group's time runs from its first start to the next group's start, and its cues share it; the
/// first interjection is shown with the last line of the turn it interrupts, one speaker per line.
/// So a long sentence is not flashed for a third of a second while `Oh.` is held for five.
struct TurnGroup {
    /// At least one, each with words.
    var turns: [TranscriptTurn]
    /// Milliseconds.
    var start: Int
    /// Where the next group starts, or the turns' given end when that is earlier; nil for the last
    /// group when no range gives its end.
    var end: Int?
    /// Whether time ranges give the speech's end, so that it fills the time up to `end`; otherwise `end`
    /// is only where the next turn starts, and the speech may stop sooner, before a silence.
    var endIsGiven = false
    /// Whether `turns[1]` is an interjection shown beside the last line of `turns[0]`.
    var sharesLastCue = false

    /// Width of the `- ` that starts each line of a two-speaker cue.
    static let dashWidth = 2

    static func groups(_ turns: [TranscriptTurn]) -> [TurnGroup] {
        var groups: [TurnGroup] = []
        var current: TurnGroup?
        for turn in turns {
            // Taken out of `current`, so that a group of thousands of turns at one time grows in place
            // rather than being copied for each.
            if var group = current.take() {
                if !turn.words.isEmpty,
                   turn.start == group.start
                    || (group.turns.count == 1 && group.isInterrupted(by: turn) && group.isStarved(at: turn.start))
                {
                    if group.turns.count == 1, group.isInterrupted(by: turn) { group.sharesLastCue = true }
                    group.turns.append(turn)
                    current = group
                    continue
                }
                group.end = min(group.givenEnd ?? turn.start, turn.start)
                group.endIsGiven = group.givenEnd != nil
                groups.append(group)
            }
            current = turn.words.isEmpty ? nil : TurnGroup(turns: [turn], start: turn.start)
        }
        if var group = current {
            group.end = group.givenEnd
            group.endIsGiven = group.givenEnd != nil
            groups.append(group)
        }
        return groups
    }

    /// The latest end time ranges give, when every turn has one.
    private var givenEnd: Int? {
        turns.allSatisfy { $0.end != nil } ? turns.compactMap(\.end).max() : nil
    }

    /// Whether the group's text needs more time than it has had by `time`.
    private func isStarved(at time: Int) -> Bool {
        let needed = turns.reduce(0) { $0 + $1.readingWidth } * 1_000 / SubtitleConventions.maximumCharactersPerSecond
        return time - start < needed
    }

    /// Whether `turn` is an interjection by someone else: another named speaker, a remark of at most
    /// `interjectionWidth` columns, and `- Name: words` fits on one line. (Without names, a short turn
    /// is as likely the same voice going on; a longer one is a reply, which waits its turn.)
    private func isInterrupted(by turn: TranscriptTurn) -> Bool {
        guard let speaker = turn.speaker, let first = turns[0].speaker, speaker != first else { return false }
        let words = turn.words.reduce(turn.words.count - 1) { $0 + DisplayWidth.columns(of: $1) }
        return words <= Self.interjectionWidth
            && turn.readingWidth + Self.dashWidth <= SubtitleConventions.maximumLineLength
    }

    /// The widest remark, in display columns, that rides with the sentence it interrupts: "Oh.",
    /// "Yeah, right.", "No way, really?"
    static let interjectionWidth = 20

    /// The group's cues before timing. `duration` is the time its speech takes, when known.
    func texts(duration: Int?) -> [CueText] {
        let totalWidth = max(1, turns.reduce(0) { $0 + $1.readingWidth })
        func cues(_ turn: TranscriptTurn, lastLineWidth: Int? = nil) -> [CueText]? {
            CueBreaking.cues(
                speaker: turn.speaker, words: turn.words,
                duration: duration.map { $0 * turn.readingWidth / totalWidth }, lastLineWidth: lastLineWidth)
        }
        var texts: [CueText] = []
        var rest = turns[...]
        if sharesLastCue, let dual = twoSpeakerCues(cues) {
            texts = dual
            rest = rest.dropFirst(2)
        }
        for turn in rest { texts += cues(turn) ?? [] }
        return texts
    }

    /// The first turn's cues ending with a two-speaker cue that holds the interjection: its last line is
    /// chosen to fit beside it. Shown on its own instead, the interjection would come only after the
    /// whole sentence it interrupted, seconds after it was said.
    private func twoSpeakerCues(
        _ cues: (TranscriptTurn, Int?) -> [CueText]?
    ) -> [CueText]? {
        let width = SubtitleConventions.maximumLineLength - Self.dashWidth
        guard var fitted = cues(turns[0], width), let last = fitted.popLast(),
              let line = cues(turns[1], nil)?.first
        else { return nil }
        return fitted + [CueText(lines: ["- " + last.lines[0], "- " + line.lines[0]], voices: last.voices + line.voices)]
    }
}

extension TranscriptTurn {
    /// What a viewer reads of the turn on one line, in display columns: `Name: ` and the words.
    var readingWidth: Int {
        let words = self.words.reduce(max(0, self.words.count - 1)) { $0 + DisplayWidth.columns(of: $1) }
        return words + (speaker.map { DisplayWidth.columns(of: $0) + 2 } ?? 0)
    }
}
