/// The transcript as plain text for show notes: who spoke and what they said, no times. Each turn is
/// one paragraph (`Ana: Welcome back. Today...`), the words of its cues joined with spaces; a turn
/// goes on across cues until another voice speaks.
enum PlainTranscriptRendering {
    static func render(_ cues: [SubtitleCue]) -> [UInt8] {
        var paragraphs: [(speaker: String?, words: [String])] = []
        for voice in cues.lazy.flatMap(\.voices) {
            if let last = paragraphs.last, last.speaker == voice.speaker {
                paragraphs[paragraphs.count - 1].words.append(voice.text)
            } else {
                paragraphs.append((voice.speaker, [voice.text]))
            }
        }
        let text = paragraphs.map { speaker, words in
            (speaker.map { "\($0): " } ?? "") + words.joined(separator: " ")
        }.joined(separator: "\n\n")
        return Array((text.isEmpty ? "" : text + "\n").utf8)
    }
}
