/// Times the cues of every turn so that they never overlap and each lasts at least 1 ms.
///
/// Turns with the same start (crosstalk, or two equal timestamps) form a group that is timed as one
/// turn, its cues in transcript order. A group lasts from its start until the next later start (an
/// empty turn's start counts), or until its given end when time ranges end earlier (the latest end of
/// its turns). Its cues share that time in proportion to their `weight`, after each is given 1 ms, so
/// none is empty even when the time is shorter than the number of cues. When even that does not fit
/// (starts 1 ms apart), the group ends as late as its cues need and later cues start that much later:
/// times only move forward, by a few milliseconds.
///
/// The last group has no next start. Unless ranges give its end, each of its cues lasts its reading
/// time: `weight` at `readingCharactersPerSecond` (15), clamped to `lastCueDurations` (1 to 7 s).
enum CueTiming {
    static func cues(for turns: [TranscriptTurn]) -> [SubtitleCue] {
        var cues: [SubtitleCue] = []
        cues.reserveCapacity(turns.count * 2)
        // No cue may start before this, the end of the cue before it.
        var earliestStart = 0
        var groupStart = 0
        while groupStart < turns.count {
            var groupEnd = groupStart + 1
            while groupEnd < turns.count, turns[groupEnd].start == turns[groupStart].start { groupEnd += 1 }
            let group = turns[groupStart..<groupEnd].filter { !$0.words.isEmpty }
            let nextStart = groupEnd < turns.count ? turns[groupEnd].start : nil
            let start = max(turns[groupStart].start, earliestStart)
            groupStart = groupEnd
            guard !group.isEmpty else { continue }

            let texts = group.flatMap { TextWrapping.cues(speaker: $0.speaker, words: $0.words) }
            let givenEnd = group.allSatisfy { $0.end != nil } ? group.compactMap(\.end).max() : nil
            let durations: [Int]
            if let end = earlier(givenEnd, nextStart) {
                durations = share(max(end - start, texts.count), by: texts.map(\.weight))
            } else {
                durations = texts.map { readingTime(weight: $0.weight) }
            }
            var cueStart = start
            for (text, duration) in zip(texts, durations) {
                cues.append(SubtitleCue(
                    number: cues.count + 1, start: cueStart, end: cueStart + duration, lines: text.lines))
                cueStart += duration
            }
            earliestStart = cueStart
        }
        return cues
    }

    /// The earlier of two optional times; nil when neither is known.
    private static func earlier(_ first: Int?, _ second: Int?) -> Int? {
        guard let first else { return second }
        guard let second else { return first }
        return min(first, second)
    }

    /// Splits `total` milliseconds (at least one per weight) into one duration per weight, each at least
    /// 1 ms, the rest in proportion to the weights; they add up to `total` exactly.
    static func share(_ total: Int, by weights: [Int]) -> [Int] {
        let weights = weights.map { max($0, 1) }
        let totalWeight = weights.reduce(0, +)
        let spare = total - weights.count
        var durations: [Int] = []
        durations.reserveCapacity(weights.count)
        var cumulativeWeight = 0, previousBoundary = 0
        for (index, weight) in weights.enumerated() {
            cumulativeWeight += weight
            let boundary = index + 1 + spare * cumulativeWeight / totalWeight
            durations.append(boundary - previousBoundary)
            previousBoundary = boundary
        }
        return durations
    }

    /// Milliseconds to read `weight` Characters, within `lastCueDurations`.
    static func readingTime(weight: Int) -> Int {
        let range = SubtitleConventions.lastCueDurations
        return min(max(weight * 1_000 / SubtitleConventions.readingCharactersPerSecond, range.lowerBound),
                   range.upperBound)
    }
}
