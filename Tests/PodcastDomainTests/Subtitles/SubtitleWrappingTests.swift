import Testing
@testable import PodcastDomain

/// Subtitle conventions: two lines of 42 Characters, long turns over several cues.
@Suite("Subtitle wrapping and the sharing of a turn's time")
struct SubtitleWrappingTests {
    @Test("A long turn is split into cues whose durations follow their text lengths")
    func longTurnSharesTimeProportionally() throws {
        // Given one 60-second turn of 70 words, which needs several cues of unequal length
        let words = (0..<70).map { $0 % 7 == 0 ? "extraordinarily" : "ok" }.joined(separator: " ")
        let subtitles = try SubtitleConversion.convert("00:00:00\nHost\n\(words)\n\n00:01:00\nGuest\nBye.\n")
        let turn = subtitles.cues.dropLast()

        // When each cue's share of the time is compared with its share of the spoken text
        // (the text's Characters plus one per word for the pause after it; the "Host: " prefix is not spoken)
        func spoken(_ cue: SubtitleCue) -> Int {
            let text = cue.text.hasPrefix("Host: ") ? String(cue.text.dropFirst(6)) : cue.text
            return text.count + 1
        }
        let totalText = turn.map(spoken).reduce(0, +)

        // Then the durations add up to the turn, and each ratio matches to within 2 ms
        #expect(turn.count >= 3)
        #expect(turn.first?.start == 0 && turn.last?.end == 60_000)
        for cue in turn {
            let expected = Double(60_000) * Double(spoken(cue)) / Double(totalText)
            #expect(abs(Double(cue.end - cue.start) - expected) <= 2, "cue \(cue.number)")
        }
        let lengths = turn.map(spoken), durations = turn.map { $0.end - $0.start }
        if let longest = lengths.indices.max(by: { lengths[$0] < lengths[$1] }),
           let shortest = lengths.indices.min(by: { lengths[$0] < lengths[$1] }), lengths[longest] != lengths[shortest]
        {
            let durationRatio = Double(durations[longest]) / Double(durations[shortest])
            let textRatio = Double(lengths[longest]) / Double(lengths[shortest])
            #expect(abs(durationRatio - textRatio) / textRatio < 0.01)
        }
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

    @Test("Lines break at spaces, never over 42 Characters, and a turn that fits on one line stays on one")
    func lineLimits() throws {
        // Given a 42-character sentence and a longer one
        let exact = "This sentence is exactly forty-two chars."
        #expect(exact.count + 1 == 42)
        let subtitles = try SubtitleConversion.convert("00:00:00\n\(exact)!\n\n00:00:05\n\(exact) And then some more words.\n")

        // Then the first is one line, the second wraps at a space into two lines of whole words
        #expect(subtitles.cues[0].lines == [exact + "!"])
        #expect(subtitles.cues[1].lines.count == 2)
        #expect(subtitles.cues[1].text == exact + " And then some more words.")
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

    @Test("A word longer than 42 Characters is cut into 42-Character pieces")
    func hardSplit() throws {
        // Given a 100-character 'word' (a URL) followed by more words
        let word = String(repeating: "abcdefghij", count: 10)
        let subtitles = try SubtitleConversion.convert("00:00:00 - 00:00:06 see \(word) for more\n")

        // Then it is cut at 42 and 84, each piece on its own line, the remainder joined by the next words
        let lines = subtitles.cues.flatMap(\.lines)
        #expect(lines == ["see", String(word.prefix(42)), String(word.dropFirst(42).prefix(42)), word.dropFirst(84) + " for more"])
        SubtitleInvariants.check(subtitles)
    }

    @Test("Lines of a wrapped turn come out about equally long, with no orphan word left for a last cue")
    func balancedLines() throws {
        // Given a turn that a greedy fill would end with a lone word on a third line
        let subtitles = try SubtitleConversion.convert(
            "00:00:00 - 00:00:09 Today we talk about event logs, projections and why replay beats migrations.\n")

        // Then its three lines are within a few Characters of each other
        let lengths = subtitles.cues.flatMap(\.lines).map(\.count)
        #expect(lengths.count == 3)
        #expect((lengths.max() ?? 0) - (lengths.min() ?? 0) <= 3)
    }

    @Test("Sharing time: every cue gets at least 1 ms and the parts add up to the total")
    func sharingArithmetic() {
        #expect(CueTiming.share(10, by: [1, 1]) == [5, 5])
        #expect(CueTiming.share(3, by: [100, 1, 1]) == [1, 1, 1])
        // 1 ms each first, then the 998 ms left in proportion 3 : 1.
        #expect(CueTiming.share(1_000, by: [3, 1]) == [749, 251])
        #expect(CueTiming.share(1_003, by: [1, 2, 0]).reduce(0, +) == 1_003)
        #expect(CueTiming.share(1_003, by: [1, 2, 0]).allSatisfy { $0 >= 1 })
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
