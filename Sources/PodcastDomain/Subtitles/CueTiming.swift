/// Times the cues so that each can be read, none overlaps the next, and none runs far behind its speech
/// (SUBTITLES.md, "Time").
///
/// Each ``TurnGroup`` has the time from its start to the next group's start, or to the end its ranges
/// give. Its speech takes all of a range; of the time to the next start, all unless that is longer
/// than its text at `slowestSpeechCharactersPerSecond`: then the rest is a silence, which its cues
/// leave empty. The speech's time is shared by the cues' weights (what a viewer reads); a cue's share,
/// from where its text is spoken, is its natural time. The last group, with no next start, gives each
/// cue its reading time at `readingCharactersPerSecond`.
///
/// Then, cue by cue in order, a cue starts at its natural start or when the cue before it ends, if later,
/// and lasts until its natural end, lengthened when that is too short to read at
/// `maximumCharactersPerSecond`, but not past `maximumLag` behind its natural end; never shorter than
/// `minimumCueDuration` nor longer than `maximumCueDuration`. A fast stretch so runs a little behind,
/// and catches up in the next pause.
enum CueTiming {
    static func cues(for turns: [TranscriptTurn]) -> [SubtitleCue] {
        var cues: [SubtitleCue] = []
        cues.reserveCapacity(turns.count * 2)
        var previousEnd = 0
        for group in TurnGroup.groups(turns) {
            let start = max(0, group.start)
            let window = group.end.map { max(0, $0 - start) }
            let roughWeight = group.turns.reduce(0) { $0 + $1.readingWidth }
            let texts = group.texts(duration: window.map { speech($0, weight: roughWeight, endIsGiven: group.endIsGiven) })
            let weights = texts.map(\.weight)
            let shares: [Int]
            if let window {
                shares = share(speech(window, weight: weights.reduce(0, +), endIsGiven: group.endIsGiven), by: weights)
            } else {
                shares = weights.map(readingTime(weight:))
            }
            var anchor = start
            for (text, share) in zip(texts, shares) {
                let cueStart = max(anchor, previousEnd)
                let naturalEnd = anchor + share
                var end = max(naturalEnd, cueStart + neededTime(weight: text.weight))
                end = min(end, naturalEnd + SubtitleConventions.maximumLag)
                end = max(end, cueStart + SubtitleConventions.minimumCueDuration)
                end = min(end, cueStart + SubtitleConventions.maximumCueDuration)
                cues.append(SubtitleCue(
                    number: cues.count + 1, start: cueStart, end: end, lines: text.lines, voices: text.voices))
                previousEnd = end
                anchor = naturalEnd
            }
        }
        return cues
    }

    /// Splits `total` milliseconds into one duration per weight, in proportion to the weights; they add
    /// up to `total` exactly.
    static func share(_ total: Int, by weights: [Int]) -> [Int] {
        let weights = weights.map { max($0, 1) }
        let totalWeight = weights.reduce(0, +)
        var durations: [Int] = []
        durations.reserveCapacity(weights.count)
        var cumulativeWeight = 0, previousBoundary = 0
        for weight in weights {
            cumulativeWeight += weight
            let boundary = total * cumulativeWeight / totalWeight
            durations.append(boundary - previousBoundary)
            previousBoundary = boundary
        }
        return durations
    }

    /// Milliseconds of `window` that speech of `weight` columns takes: all of it when ranges give its
    /// end, else at most the text at the slowest speech; the rest is silence.
    static func speech(_ window: Int, weight: Int, endIsGiven: Bool) -> Int {
        endIsGiven ? window : min(window, weight * 1_000 / SubtitleConventions.slowestSpeechCharactersPerSecond)
    }

    /// Milliseconds `weight` columns need to be read at the fastest comfortable speed.
    static func neededTime(weight: Int) -> Int {
        weight * 1_000 / SubtitleConventions.maximumCharactersPerSecond
    }

    /// Milliseconds to read `weight` columns at a relaxed speed, within the cue duration bounds.
    static func readingTime(weight: Int) -> Int {
        min(max(weight * 1_000 / SubtitleConventions.readingCharactersPerSecond, SubtitleConventions.minimumCueDuration),
            SubtitleConventions.maximumCueDuration)
    }
}
