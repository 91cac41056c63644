import PropertyBased
import Testing
@testable import PodcastDomain

/// Random transcripts: whatever the turns, the promises hold and no word is lost.
@Suite("Subtitle conversion properties")
struct SubtitlePropertyTests {
    /// One generated turn: milliseconds since the previous turn (negative: crosstalk), a speaker index
    /// (0: none) and lowercase words, some longer than a line.
    private static let turn = zip(
        Gen.int(in: -900...20_000),
        Gen.int(in: 0...3),
        Gen.lowercaseLetter.string(of: 1...12).array(of: 0...60),
        Gen.lowercaseLetter.string(of: 43...90).array(of: 0...1))
    private static let speakers = ["", "Ana", "Ben Li", "Zoë"]

    /// The Zencastr text of `turns`, with the words that should come out, in order.
    private static func zencastr(_ turns: [(Int, Int, [String], [String])]) -> (String, [String]) {
        // Crosstalk is measured from the latest start so far, which is where earlier crosstalk was moved.
        var text = "", words: [String] = [], latest = 5_000
        for (gap, speaker, turnWords, longWords) in turns {
            let centiseconds = max(0, latest + gap) / 10
            text += "\(centiseconds / 6_000):" + twoDigits(centiseconds / 100 % 60) + "."
                + twoDigits(centiseconds % 100) + "\n"
            if speaker > 0 { text += speakers[speaker] + "\n" }
            let all = turnWords + longWords
            if !all.isEmpty { text += all.joined(separator: " ") + "\n" }
            text += "\n"
            words += all
            latest = max(latest, centiseconds * 10)
        }
        return (text, words)
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    @Test("Random Zencastr turns: cues never overlap, last at least 1 ms, wrap within 2 × 42, keep every word")
    func randomTurns() async {
        await propertyCheck(count: 200, input: Self.turn.array(of: 1...25)) { turns in
            // Given a random transcript
            let (transcript, words) = Self.zencastr(turns)

            // When it is converted
            guard !words.isEmpty else {
                #expect(throws: TranscriptError.noText) { try SubtitleConversion.convert(transcript) }
                return
            }
            let subtitles: Subtitles
            do {
                subtitles = try SubtitleConversion.convert(transcript)
            } catch {
                Issue.record("\(error)\n\(transcript)")
                return
            }

            // Then the invariants hold and the words come out in order (long ones cut into pieces)
            SubtitleInvariants.check(subtitles)
            #expect(SubtitleInvariants.spokenWords(subtitles).joined() == words.joined())
        }
    }

    @Test("Random turns whose speakers have any shape (a dot, three words, lower case, no capitals): each is named, none is glued onto the speech")
    func speakersOfAnyShape() async {
        let names = ["Dr. Smith", "Mary Jane Watson", "dr. smith", "李明", "Ana"]
        let turn = zip(Gen.int(in: 0...20_000), Gen.int(in: 0...4), Gen.lowercaseLetter.string(of: 1...12).array(of: 1...40))
        await propertyCheck(count: 100, input: turn.array(of: 1...20)) { turns in
            // Given timestamp lines, each followed by its speaker and at least one word
            var text = "", words: [String] = [], time = 1
            for (gap, name, turnWords) in turns {
                time += gap / 1_000 + 1
                text += "\(time / 3_600):" + Self.twoDigits(time / 60 % 60) + ":" + Self.twoDigits(time % 60) + "\n"
                text += names[name] + "\n" + turnWords.joined(separator: " ") + "\n\n"
                words += turnWords
            }

            // When it is converted
            guard let subtitles = try? SubtitleConversion.convert(text) else {
                Issue.record("refused:\n\(text)")
                return
            }

            // Then every turn is named, and what the cues show besides is exactly the words, in order
            SubtitleInvariants.check(subtitles)
            #expect(SubtitleInvariants.spokenWords(subtitles) == words)
            let named = subtitles.cues.flatMap(\.lines).filter { line in
                names.contains { line.hasPrefix($0 + ": ") || line.hasPrefix("- " + $0 + ": ") }
            }
            #expect(named.count == turns.count)
        }
    }

    @Test("Random time ranges: no words are shown before their range starts, and cues never overlap")
    func randomRanges() async {
        let range = zip(
            Gen.int(in: 0...5_000), Gen.int(in: 1...9_000), Gen.lowercaseLetter.string(of: 1...9).array(of: 1...40))
        await propertyCheck(count: 200, input: range.array(of: 1...20)) { ranges in
            // Given ranges starting in order, some overlapping the next
            var text = "", start = 0, bounds: [(Int, Int)] = []
            for (gap, length, words) in ranges {
                start += gap
                bounds.append((start, start + length))
                text += SRTRendering.timestamp(start, fractionSeparator: ".") + " --> "
                    + SRTRendering.timestamp(start + length, fractionSeparator: ".") + " "
                    + words.joined(separator: " ") + "\n"
            }

            // When they are converted
            guard let subtitles = try? SubtitleConversion.convert(text) else {
                Issue.record("failed:\n\(text)")
                return
            }

            // Then the first cue starts with the first range, and each range's first word is in a cue
            // that starts no earlier than the range
            SubtitleInvariants.check(subtitles)
            #expect(subtitles.cues.first?.start == bounds.first?.0)
            // (an interjection riding in a two-speaker cue may appear with the line above it)
            var shown: [(word: String, cueStart: Int, rides: Bool)] = []
            for cue in subtitles.cues {
                for (index, voice) in cue.voices.enumerated() {
                    shown += voice.text.split(separator: " ").map { (String($0), cue.start, index > 0) }
                }
            }
            var index = 0
            for ((start, _), (_, _, words)) in zip(bounds, ranges) {
                guard index < shown.count else { break }
                #expect(shown[index].word == words[0] && (shown[index].cueStart >= start || shown[index].rides))
                index += words.count
            }
            #expect(index == shown.count)
        }
    }
}
