import Foundation
import Testing
@testable import PodcastDomain

/// Where cues and lines break (SUBTITLES.md, "Where to break"), and how a turn's time is shared. Each
/// example is one that a greedy fill of 42 columns gets wrong.
@Suite("Subtitle breaks and the sharing of a turn's time")
struct SubtitleWrappingTests {
    /// The cues of one turn given as a 20-second range, so that time plays no part in the breaks.
    private static func cues(_ text: String) throws -> [SubtitleCue] {
        let subtitles = try SubtitleConversion.convert("00:00:00 - 00:00:20 \(text)\n")
        SubtitleInvariants.check(subtitles)
        return subtitles.cues
    }

    @Test("Cues end at sentence ends: three sentences become three cues, not a greedy fill across them")
    func cuesEndAtSentences() throws {
        let sentences = [
            "We started the show in a kitchen in Lisbon.",
            "Then we moved to a real studio with two microphones.",
            "Now we record from three cities at once.",
        ]
        let cues = try Self.cues(sentences.joined(separator: " "))
        #expect(cues.map(\.text) == sentences)
    }

    @Test("A sentence too long for a cue breaks at its comma")
    func cuesBreakAtClauses() throws {
        let text = "When we first put the whole archive online for our listeners, nobody expected the "
            + "old interviews to win."
        let cues = try Self.cues(text)
        #expect(cues.count == 2)
        #expect(cues[0].text.hasSuffix("listeners,"))
    }

    @Test("No line ends on an article, a preposition, a conjunction or a possessive when it can be avoided")
    func noWeakLineEnds() throws {
        // A greedy fill ends the first line on "the".
        let cues = try Self.cues(
            "So I went to see the new exhibition at the museum of modern art yesterday and I loved it.")
        for line in cues.flatMap({ $0.lines.dropLast() }) {
            // As srt-metrics.py reads it: the last word, lowercased, without , . ; : ! ?
            let last = line.split(separator: " ").last.map { $0.lowercased().trimmingCharacters(in: .init(charactersIn: ",.;:!?")) } ?? ""
            #expect(!WordTraits.weakWordList.contains(last), "\(line)")
        }
    }

    @Test("Names, numbers with what they count, and URLs stay whole on one line")
    func namesNumbersAndURLsStayWhole() throws {
        // A greedy fill splits "Mary | Jane" and "20 | minutes".
        let name = try Self.cues("Last week we talked for an hour with Mary Jane Watson about the way she records her show.")
        #expect(name.flatMap(\.lines).contains { $0.contains("Mary Jane Watson") })
        let number = try Self.cues("We recorded the whole conversation in 20 minutes flat, and then we edited it for a week.")
        #expect(number.flatMap(\.lines).contains { $0.contains("20 minutes") })
        // A URL wider than a line is cut, but its pieces stay in one cue.
        let url = "https://episodic.example.org/shows/night-shift-radio/episodes/12"
        let cues = try Self.cues("The notes are at \(url) as always.")
        #expect(cues.contains { $0.text.replacingOccurrences(of: " ", with: "").contains(url) })
    }

    @Test("Two lines of one phrase are balanced, and the bottom one is the longer when they differ")
    func bottomHeavy() throws {
        let cues = try Self.cues("Every single episode we have ever released is still available on the feed")
        #expect(cues.count == 1 && cues[0].lines.count == 2)
        let widths = cues[0].lines.map(DisplayWidth.columns(of:))
        #expect(widths[0] <= widths[1] && widths[1] - widths[0] <= 12, "\(cues[0].lines)")
    }

    @Test("A long turn's cues share its speech time by their text; the silence after it stays empty")
    func longTurnSharesSpeechTime() throws {
        // Given one turn of 70 words and a next turn a minute later: far more time than the words need
        let words = (0..<70).map { $0 % 7 == 0 ? "extraordinarily" : "ok" }.joined(separator: " ")
        let subtitles = try SubtitleConversion.convert("00:00:00\nHost\n\(words)\n\n00:01:00\nGuest\nBye.\n")
        let turn = subtitles.cues.dropLast()

        // Then the turn's cues follow one another from its start, each lasting its text at the slowest
        // speech (10 characters a second, so 100 ms a character; 7 s at most), and then nothing is shown
        // until 1:00
        #expect(turn.count >= 3)
        #expect(turn.first?.start == 0)
        for (cue, next) in zip(turn, turn.dropFirst()) { #expect(cue.end == next.start) }
        for cue in turn { #expect(abs(cue.end - cue.start - min(cue.text.count * 100, 7_000)) <= 2, "cue \(cue.number)") }
        #expect((turn.last?.end ?? 60_000) < 50_000)
        #expect(subtitles.cues.last?.start == 60_000)
        SubtitleInvariants.check(subtitles)
    }

    @Test("Only the first cue of a turn carries the speaker's 'Name: ' prefix")
    func speakerPrefixOnce() throws {
        let words = Array(repeating: "talking", count: 40).joined(separator: " ")
        let subtitles = try SubtitleConversion.convert("00:00:00\nFrank\n\(words)\n\n00:00:30\nJames\nYes.\n")
        #expect(subtitles.cues.filter { $0.lines[0].hasPrefix("Frank: ") }.map(\.number) == [1])
        #expect(subtitles.cues.count > 3)
        #expect(subtitles.cues.last?.lines == ["James: Yes."])
    }

    @Test("Lines break at spaces, never over 42 columns, and a turn that fits on one line stays on one")
    func lineLimits() throws {
        // Given a 42-character sentence and a longer one
        let exact = "This sentence is exactly forty-two chars."
        #expect(exact.count + 1 == 42)
        let subtitles = try SubtitleConversion.convert("00:00:00\n\(exact)!\n\n00:00:05\n\(exact) And then some more words.\n")

        // Then the first is one line, the second wraps at a space into whole words
        #expect(subtitles.cues[0].lines == [exact + "!"])
        #expect(subtitles.cues.dropFirst().map(\.text).joined(separator: " ") == exact + " And then some more words.")
        SubtitleInvariants.check(subtitles)
    }

    @Test("Line width counts display columns, not bytes: accented and combined letters take one, a Chinese character two")
    func columnsNotBytes() throws {
        // Given a line of 42 columns that is 50 bytes of UTF-8 (ü, ß, ñ, Ç, an e with a combining grave, 李)
        let line = "Grüße aus Köln, señor! Ça va tre\u{300}s bien! 李"
        #expect(DisplayWidth.columns(of: line) == 42 && line.utf8.count == 50)

        // When it is converted
        let subtitles = try SubtitleConversion.convert("00:00:00 - 00:00:04 \(line)\n")

        // Then it stays on one line; with emoji, which take two columns each, it does not
        #expect(subtitles.cues.map(\.lines) == [[line]])
        let wider = try SubtitleConversion.convert("00:00:00 - 00:00:04 Grüße aus Köln, señor! Ça va très bien! 🇫🇷👨‍👩‍👧\n")
        #expect(wider.cues.flatMap(\.lines).count == 2)
    }

    @Test("A word longer than 42 columns is cut into 42-column pieces, kept together in one cue")
    func hardSplit() throws {
        // Given a 100-character 'word' followed by more words
        let word = String(repeating: "abcdefghij", count: 10)
        let subtitles = try SubtitleConversion.convert("00:00:00 - 00:00:06 see \(word) for more\n")

        // Then it is cut at 42 and 84, each piece on its own line, the remainder joined by the next words
        let lines = subtitles.cues.flatMap(\.lines)
        #expect(lines == ["see", String(word.prefix(42)), String(word.dropFirst(42).prefix(42)), word.dropFirst(84) + " for more"])
        SubtitleInvariants.check(subtitles)
    }

    @Test("Sharing time: the parts follow the weights and add up to the total")
    func sharingArithmetic() {
        #expect(CueTiming.share(10, by: [1, 1]) == [5, 5])
        #expect(CueTiming.share(1_000, by: [3, 1]) == [750, 250])
        #expect(CueTiming.share(1_003, by: [1, 2, 0]).reduce(0, +) == 1_003)
    }

    @Test("Width is counted in display columns: Chinese and Japanese lines stay within 42 columns, every character kept")
    func eastAsianWidth() throws {
        // Given a turn of Chinese without blanks (84 characters, 168 columns) and one of Japanese with a blank
        let chinese = String(repeating: "我们今天讨论播客制作。", count: 8) + "谢谢收听！"
        let japanese = "今日はポッドキャストの作り方について話します。 字幕は一行四十二桁まで。"
        let subtitles = try SubtitleConversion.convert("00:00:01\n李明\n\(chinese)\n\n00:00:30\n佐藤\n\(japanese)\n")

        // Then no line is wider than 42 columns (21 such characters), and nothing is lost
        for line in subtitles.cues.flatMap(\.lines) { #expect(DisplayWidth.columns(of: line) <= 42, "\(line)") }
        let shown = subtitles.cues.flatMap(\.lines).joined().replacingOccurrences(of: " ", with: "")
        #expect(shown == ("李明:" + chinese + "佐藤:" + japanese).replacingOccurrences(of: " ", with: ""))
        #expect(DisplayWidth.columns(of: "李明") == 4 && DisplayWidth.columns(of: "e\u{301}") == 1 && DisplayWidth.columns(of: "ab") == 2)
    }
}
