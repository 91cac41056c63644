/// Whether a timestamp layout puts each turn's speaker on the line after its timestamp, decided for the
/// whole transcript, so that a speaker is found by where it stands rather than by what it looks like:
/// `Dr. Smith`, `Mary Jane Watson`, `dr. smith` and `李明` are names there, though ``SpeakerName``'s
/// shape rules would read them as speech.
///
/// Both timestamp layouts put the speaker there; a transcript follows that when nearly every turn
/// holds more than one line after its timestamp. Then the first line of such a turn is its speaker
/// unless it ends a sentence (`.`, `?`, `!`, `…`), which a name does not and a line of speech that lost
/// its speaker does. Where the layout is ambiguous (a turn of one line; a transcript whose turns are
/// mostly one line of speech right after the timestamp) the shape rules decide, line by line.
struct SpeakerLayout {
    let byPosition: Bool
    /// How many non-blank lines follow each time line before the next one, in order.
    let turnLineCounts: [Int]

    /// The share of turns that must hold more than one line.
    static let multiLineShare = 0.8

    /// Counts the lines of each turn of a timestamp layout, starting turns where `TurnParsing` does.
    init(_ lines: ArraySlice<TranscriptLine>, format: TranscriptFormat) {
        var turnLineCounts: [Int] = []
        for line in lines {
            switch LineKind(line.text) {
            case .time, .malformedTime:
                turnLineCounts.append(0)
            case .blank:
                continue
            case .range, .text:
                if let damaged = DamagedTimestamp(line.text, format: format) {
                    // A speaker on the timestamp's line counts as the line after it.
                    turnLineCounts.append(damaged.speaker == nil ? 0 : 1)
                    continue
                }
                guard !turnLineCounts.isEmpty else { continue }
                turnLineCounts[turnLineCounts.count - 1] += 1
            }
        }
        self.turnLineCounts = turnLineCounts
        let spoken = turnLineCounts.filter { $0 > 0 }
        byPosition = !spoken.isEmpty && Double(spoken.filter { $0 > 1 }.count) >= Self.multiLineShare * Double(spoken.count)
    }

    /// The speaker named by `line`, the first line of the turn started by the `turn`th time line (from
    /// 0); nil when it is speech.
    func speaker(_ line: Substring, turn: Int) -> Substring? {
        let lineCount = turn < turnLineCounts.count ? turnLineCounts[turn] : 0
        guard byPosition, lineCount > 1 else { return SpeakerName.from(line) }
        guard let last = line.last, !".?!…".contains(last) else { return nil }
        return line.utf8.last == UInt8(ascii: ":") ? line.dropLast() : line
    }
}
