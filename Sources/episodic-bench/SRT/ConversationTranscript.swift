import CoreValues

/// An episode of two hosts talking, as a recording service transcribes it: `MM:SS.cc`, the speaker,
/// the turn. What makes real transcripts hard to subtitle is in it, at rates like a real hour's:
/// sentences with commas, names, numbers and the odd URL; each host at their own pace (17 to 21
/// characters a second); interjections ("Oh.", "Yeah, right.") stamped a fraction of a second into
/// the other host's sentence; a stamp now and then a little before the one above it; stretches where
/// the service stamps only every half minute or so; and silences from a few seconds to three minutes.
enum ConversationTranscript {
    static let hosts = ["Ana Lima", "Ben"]
    static let interjections = [
        "Oh.", "Yeah.", "Right.", "Mm-hmm.", "Wow.", "Sure.", "Yeah, right.", "No way!", "Exactly.", "Totally.",
        "Ha!", "Okay.", "Oh no.", "Really?",
    ]
    static let names = ["Mary Jane Watson", "Dr. Smith", "Kenji Watanabe", "Lagos", "New Zealand", "Octoverse"]
    static let extras = ["20 minutes", "3.5 percent", "1962", "$40", "episodic.example.org/notes", "11 hours"]

    static func make(seconds: Int, seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        var text = ""
        var time = 1_200  // milliseconds
        var speaker = 0
        var sparseUntil = 0
        while time < seconds * 1_000 {
            let pace = speaker == 0 ? 19.5 : 17.0 + Double(random.next() % 40) / 10
            let sparse = time < sparseUntil
            let sentences = sparse ? 6 + Int(random.next() % 8) : 1 + Int(random.next() % (random.next() % 3 == 0 ? 7 : 3))
            let turn = (0..<sentences).map { _ in sentence(using: &random) }.joined(separator: " ")
            let spoken = Int(Double(turn.count) / pace * 1_000)
            append(time: time, speaker: hosts[speaker], text: turn, to: &text)
            // The other host cuts in while this one is still talking.
            if spoken > 2_500, random.next() % 4 == 0 {
                let at = time + 200 + Int(random.next() % 900)
                let stepsBack = random.next() % 10 == 0
                append(time: stepsBack ? time - Int(random.next() % 600) : at, speaker: hosts[1 - speaker],
                       text: interjections[Int(random.next() % UInt64(interjections.count))], to: &text)
            }
            time += spoken + 100 + Int(random.next() % 300)
            if random.next() % 80 == 0 { time += 3_000 + Int(random.next() % 20_000) }
            if random.next() % 500 == 0 { time += 180_000 }
            if random.next() % 60 == 0 { sparseUntil = time + 120_000 }
            if random.next() % 3 != 0 { speaker = 1 - speaker }
        }
        return text
    }

    /// A sentence of 3 to 24 words, capitalised, with a comma or two, sometimes a name or a number.
    private static func sentence(using random: inout SplitMix64) -> String {
        let count = 3 + Int(random.next() % 22)
        var words: [String] = []
        for index in 0..<count {
            if index > 0, random.next() % 9 == 0 {
                words[words.count - 1] += ","
            }
            if random.next() % 25 == 0 {
                words.append(random.next() % 2 == 0 ? names[Int(random.next() % UInt64(names.count))]
                             : extras[Int(random.next() % UInt64(extras.count))])
            } else {
                words.append(TranscriptWords.next(using: &random))
            }
        }
        words[0] = words[0].prefix(1).uppercased() + words[0].dropFirst()
        let end = [".", ".", ".", "?", "!", "..."][Int(random.next() % 6)]
        return words.joined(separator: " ").trimmingSuffix(",") + end
    }

    private static func append(time: Int, speaker: String, text: String, to transcript: inout String) {
        let centiseconds = max(0, time) / 10
        let minutes = centiseconds / 6_000, seconds = centiseconds / 100 % 60, fraction = centiseconds % 100
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        transcript += "\(two(minutes)):\(two(seconds)).\(two(fraction))\n\(speaker)\n\(text)\n\n"
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
