import Foundation
import CoreValues
import Testing
@testable import PodcastDomain

/// Where cues and lines break, over generated speech: sentences of common words (a third of them
/// articles, prepositions, conjunctions or possessives, as in real talk), commas, names of two words
/// and numbers with what they count. Seeded, so that a failure can be replayed; each seed is one
/// transcript of 60 turns, measured as `srt-metrics.py` measures an SRT.
@Suite("Subtitle break properties")
struct SubtitleBreakPropertyTests {
    static let words = """
        the of and to in a with for my your our their that but so as from at by on if \
        show episode guest microphone story question answer people record studio listeners morning \
        really always never often think said talked built tested moved published edited shared \
        quickly slowly honestly carefully new old small loud quiet early late
        """.split(separator: " ").map(String.init)
    static let names = ["Mary Jane", "New Zealand", "Kenji Watanabe", "Ana Lima"]
    static let counts = ["20 minutes", "3 hours", "12 episodes", "40 listeners"]

    /// A Zencastr transcript of `turns` turns, and the pairs that must stay on one line.
    static func transcript(seed: UInt64, turns: Int) -> String {
        var random = SplitMix64(seed: seed)
        func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
        var text = "", time = 1_000
        for turn in 0..<turns {
            var sentences: [String] = []
            for _ in 0...pick(4) {
                var sentence: [String] = []
                for index in 0..<(4 + pick(16)) {
                    switch pick(20) {
                    case 0: sentence.append(names[pick(names.count)])
                    case 1: sentence.append(counts[pick(counts.count)])
                    default: sentence.append(words[pick(words.count)])
                    }
                    if index > 2, pick(9) == 0 { sentence[sentence.count - 1] += "," }
                }
                let joined = sentence.joined(separator: " ").trimmingCharacters(in: [","])
                sentences.append(joined.prefix(1).uppercased() + joined.dropFirst() + [".", "?", "!"][pick(3)])
            }
            let spoken = sentences.joined(separator: " ")
            let centiseconds = time / 10
            text += "\(centiseconds / 6_000):\(two(centiseconds / 100 % 60)).\(two(centiseconds % 100))\n"
                + (turn % 2 == 0 ? "Ana" : "Ben") + "\n" + spoken + "\n\n"
            time += spoken.count * 1_000 / 16 + 300
        }
        return text
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    @Test("Lines rarely end on a weak word, cues break at punctuation, and names and counts are never split", arguments: 1...12)
    func breaks(seed: Int) throws {
        // Given a generated transcript
        let subtitles = try SubtitleConversion.convert(Self.transcript(seed: UInt64(seed), turns: 60))
        SubtitleInvariants.check(subtitles)

        // When its lines and cue breaks are measured as srt-metrics.py measures them
        let innerLines: [String] = subtitles.cues.flatMap { $0.lines.dropLast() }
        let innerLineEnds = innerLines.map { line in
            (line.split(separator: " ").last.map(String.init) ?? "").lowercased().trimmingCharacters(in: .init(charactersIn: ",.;:!?"))
        }
        let weak = innerLineEnds.filter { WordTraits.weakWordList.contains($0) }.count
        var inTurnBreaks = 0, atPunctuation = 0
        for (cue, next) in zip(subtitles.cues, subtitles.cues.dropFirst()) where !next.text.hasPrefix("Ana:") && !next.text.hasPrefix("Ben:") && !next.text.hasPrefix("- Ana:") && !next.text.hasPrefix("- Ben:") {
            inTurnBreaks += 1
            if let last = cue.text.last, ".,;:!?…\"”)".contains(last) { atPunctuation += 1 }
        }

        // Then at most 5 % of lines end on a weak word, at least half the cue breaks fall at punctuation,
        // and no name or count is broken across lines or cues
        #expect(Double(weak) <= 0.05 * Double(max(1, innerLineEnds.count)), "\(weak) of \(innerLineEnds.count)")
        #expect(Double(atPunctuation) >= 0.5 * Double(inTurnBreaks), "\(atPunctuation) of \(inTurnBreaks)")
        let lines = subtitles.cues.flatMap(\.lines)
        for pair in Self.names + Self.counts {
            let parts = pair.split(separator: " ")
            for (line, next) in zip(lines, lines.dropFirst()) {
                #expect(!(line.hasSuffix(" " + parts[0]) && next.hasPrefix(parts[1])), "\(pair) split: \(line) | \(next)")
            }
        }
    }
}
