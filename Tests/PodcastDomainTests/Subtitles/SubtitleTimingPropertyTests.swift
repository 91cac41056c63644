import PropertyBased
import Testing
@testable import PodcastDomain

/// Generated conversations with what makes real ones hard to subtitle (interjections stamped inside
/// the other host's sentence, sparse stamps, silences), and the timing rules of SUBTITLES.md checked on
/// every one of them.
@Suite("Subtitle timing properties")
struct SubtitleTimingPropertyTests {
    /// One turn: sentences (each some lowercase words), the speaking rate in characters a second, the
    /// silence after it in milliseconds (one in ten a long one, 30 s: longer than any turn's text takes
    /// even at the slowest speech, so it cannot be mistaken for slow speech), and whether the other host
    /// cuts in with a short remark.
    private static let turn = zip(
        Gen.lowercaseLetter.string(of: 1...9).array(of: 2...14).array(of: 1...6),
        Gen.int(in: 12...17),
        Gen.int(in: 0...9).map { $0 == 0 ? 30_000 : 100 + $0 * 90 },
        Gen.int(in: 0...3).map { $0 == 0 })

    private struct Spoken {
        var text = ""
        var words: [String] = []
        /// Each turn's stamp, speaker and whether a long silence came before it.
        var turns: [(start: Int, speaker: String, afterSilence: Bool)] = []
    }

    /// The Zencastr text of a conversation between Ana and Ben.
    private static func conversation(_ turns: [([[String]], Int, Int, Bool)]) -> Spoken {
        var spoken = Spoken(), time = 1_000, afterSilence = false
        for (index, (sentences, rate, silence, interrupted)) in turns.enumerated() {
            let speaker = index % 2 == 0 ? "Ana" : "Ben", other = index % 2 == 0 ? "Ben" : "Ana"
            let text = sentences.map { $0.joined(separator: " ") + "." }.joined(separator: " ")
            let duration = text.count * 1_000 / rate
            append(time, speaker, text, to: &spoken, afterSilence: afterSilence)
            if interrupted && duration > 2_000 { append(time + 400, other, "oh really.", to: &spoken, afterSilence: false) }
            time += duration + silence
            afterSilence = silence >= 30_000
        }
        return spoken
    }

    private static func append(_ time: Int, _ speaker: String, _ text: String, to spoken: inout Spoken, afterSilence: Bool) {
        let centiseconds = time / 10
        spoken.text += "\(centiseconds / 6_000):" + two(centiseconds / 100 % 60) + "." + two(centiseconds % 100)
            + "\n\(speaker)\n\(text)\n\n"
        spoken.words += text.split(separator: " ").map(String.init)
        spoken.turns.append((centiseconds * 10, speaker, afterSilence))
    }

    /// The conversation of `turns` and its subtitles; nil, with an issue recorded, if it was refused.
    private static func converted(_ turns: [([[String]], Int, Int, Bool)]) -> (Spoken, Subtitles)? {
        let spoken = conversation(turns)
        guard let subtitles = try? SubtitleConversion.convert(spoken.text) else {
            Issue.record("refused:\n\(spoken.text)")
            return nil
        }
        return (spoken, subtitles)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    @Test("Conversations spoken at 12 to 17 characters a second, with interjections, sparse stamps and silences: every cue is readable at 20 characters a second, 0.833 s to 7 s, every word in order")
    func readable() async {
        await propertyCheck(count: 150, input: Self.turn.array(of: 1...30)) { turns in
            // Given a generated conversation, when it is converted
            guard let (spoken, subtitles) = Self.converted(turns) else { return }

            // Then no cue must be read faster than 20 characters a second, none is starved or hangs,
            // and the words are all there
            SubtitleInvariants.check(subtitles)
            #expect(SubtitleInvariants.spokenWords(subtitles) == spoken.words)
            for cue in subtitles.cues {
                let rate = Double(cue.text.count) * 1_000 / Double(cue.end - cue.start)
                #expect(rate <= 20.01, "cue \(cue.number) at \(rate) characters a second\n\(spoken.text)")
            }
        }
    }

    @Test("Each turn is shown from its stamp, at most 2.5 s behind it, and right on it after a silence")
    func inStep() async {
        await propertyCheck(count: 150, input: Self.turn.array(of: 1...30)) { turns in
            // Given a generated conversation, converted
            guard let (spoken, subtitles) = Self.converted(turns) else { return }

            // When each turn's first cue is found (named "Ana: " or "Ben: ", alone or in a two-speaker cue)
            var firstCues: [(start: Int, rides: Bool)] = []
            for cue in subtitles.cues {
                for (index, line) in cue.lines.enumerated() where line.hasPrefix("Ana: ") || line.hasPrefix("Ben: ")
                    || line.hasPrefix("- Ana: ") || line.hasPrefix("- Ben: ")
                {
                    firstCues.append((cue.start, index > 0))
                }
            }

            // Then it is never before its stamp (unless it rides beside the sentence it interrupts), never
            // more than the lag allowance after it, and exactly on it after a long silence
            #expect(firstCues.count == spoken.turns.count)
            for (turn, cue) in zip(spoken.turns, firstCues) where !cue.rides {
                #expect(cue.start >= turn.start)
                #expect(cue.start - turn.start <= SubtitleConventions.maximumLag, "\(cue.start - turn.start) ms late\n\(spoken.text)\n\(subtitles.srt)")
                if turn.afterSilence { #expect(cue.start == turn.start) }
            }
        }
    }
}
