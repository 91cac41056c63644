import CoreValues

/// A Zencastr transcript with the shape of a real one: `MM:SS.cc` on a line, the speaker on the next
/// (sometimes absent), then the turn, then a blank line. Turns run from a word to a long monologue and
/// timestamps go past the hour. Written as bytes: 2,000 of these must be quick to make.
enum ZencastrTranscript {
    static let speakers = ["James", "Frank", "Maya Okafor", "Kenji Watanabe", ""]

    /// About `bytes` bytes of transcript (it stops at the first turn past the size).
    static func make(bytes: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var text: [UInt8] = []
        text.reserveCapacity(bytes + 4_096)
        var centiseconds = 29 + Int(random.next() % 300)
        while text.count < bytes {
            appendClock(centiseconds, to: &text)
            text.append(0x0A)
            let speaker = speakers[Int(random.next() % UInt64(speakers.count))]
            if !speaker.isEmpty {
                text += speaker.utf8
                text.append(0x0A)
            }
            let length = random.next() % 10 == 0 ? 60 + Int(random.next() % 180) : 1 + Int(random.next() % 30)
            for i in 0..<length {
                var word = Array(TranscriptWords.next(using: &random).utf8)
                if i == 0, let first = word.first, (0x61...0x7A).contains(first) { word[0] = first - 0x20 }
                if i > 0 { text.append(random.next() % 12 == 0 ? 0x2C : 0x20) }
                if i > 0, text.last == 0x2C { text.append(0x20) }
                text += word
            }
            text += Array(".\n\n".utf8)
            centiseconds += length * 35 + 50 + Int(random.next() % 350)
        }
        return text
    }

    /// `MM:SS.cc`, minutes past 59 as Zencastr writes them.
    private static func appendClock(_ centiseconds: Int, to text: inout [UInt8]) {
        let minutes = centiseconds / 6_000, seconds = centiseconds / 100 % 60, fraction = centiseconds % 100
        func two(_ value: Int) {
            text.append(0x30 + UInt8(value / 10 % 10))
            text.append(0x30 + UInt8(value % 10))
        }
        if minutes >= 100 { text += String(minutes / 100).utf8 }
        two(minutes)
        text.append(0x3A)
        two(seconds)
        text.append(0x2E)
        two(fraction)
    }
}
