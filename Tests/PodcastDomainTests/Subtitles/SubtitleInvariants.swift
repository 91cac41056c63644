import Testing
@testable import PodcastDomain

/// The promises every conversion keeps, checked on any output.
enum SubtitleInvariants {
    /// Numbered from 1, each cue shown for 0.833 s to 7 s, none overlapping the next, 1 or 2 lines of 1
    /// to 42 display columns that show exactly its voices' words, and an SRT text that reads back to the
    /// same cues.
    static func check(_ subtitles: Subtitles, sourceLocation: SourceLocation = #_sourceLocation) {
        let cues = subtitles.cues
        #expect(cues.map(\.number) == Array(1..<cues.count + 1), "numbered from 1", sourceLocation: sourceLocation)
        for cue in cues {
            #expect((833...7_000).contains(cue.end - cue.start), "cue \(cue.number) lasts \(cue.end - cue.start) ms",
                    sourceLocation: sourceLocation)
            #expect(showsItsVoices(cue), "cue \(cue.number): \(cue.lines) against \(cue.voices)",
                    sourceLocation: sourceLocation)
            #expect((1...2).contains(cue.lines.count), "cue \(cue.number) has 1 or 2 lines",
                    sourceLocation: sourceLocation)
            for line in cue.lines {
                let columns = DisplayWidth.columns(of: line)
                #expect((1...42).contains(columns), "cue \(cue.number): \(columns) columns in \"\(line)\"",
                        sourceLocation: sourceLocation)
            }
        }
        for (cue, next) in zip(cues, cues.dropFirst()) {
            #expect(cue.end <= next.start, "cue \(cue.number) ends before cue \(next.number) starts",
                    sourceLocation: sourceLocation)
        }
        #expect(SRTReader.cues(in: subtitles.srt) == cues.map(\.shown), "the SRT reads back to the cues",
                sourceLocation: sourceLocation)
    }

    /// Whether the lines are the voices' words with only a `Name: ` prefix, and in a two-speaker cue one
    /// voice per line, each after `- `.
    static func showsItsVoices(_ cue: SubtitleCue) -> Bool {
        func shows(_ text: String, _ voice: SubtitleVoice) -> Bool {
            guard text.hasSuffix(voice.text) else { return false }
            let prefix = text.dropLast(voice.text.count)
            return prefix.isEmpty || (voice.speaker != nil && prefix.hasSuffix(": "))
        }
        switch cue.voices.count {
        case 1: return shows(cue.text, cue.voices[0])
        case 2:
            return cue.lines.count == 2 && zip(cue.lines, cue.voices).allSatisfy { line, voice in
                line.hasPrefix("- ") && shows(String(line.dropFirst(2)), voice)
            }
        default: return false
        }
    }

    /// Every spoken word, in order, as the cues' voices hold them.
    static func spokenWords(_ subtitles: Subtitles) -> [String] {
        subtitles.cues.flatMap { $0.voices.flatMap { $0.text.split(separator: " ").map(String.init) } }
    }
}

/// A reader of SRT written for the tests, independent of the renderer, so the round trip means something.
enum SRTReader {
    static func cues(in srt: String) -> [SubtitleCue]? {
        var cues: [SubtitleCue] = []
        for block in srt.split(separator: "\n\n", omittingEmptySubsequences: true) {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count >= 3, let number = Int(lines[0]) else { return nil }
            let times = lines[1].split(separator: " --> ")
            guard times.count == 2, let start = milliseconds(times[0]), let end = milliseconds(times[1]) else {
                return nil
            }
            cues.append(SubtitleCue(number: number, start: start, end: end, lines: Array(lines[2...]), voices: []))
        }
        return cues
    }

    /// `HH:MM:SS,mmm` in milliseconds.
    static func milliseconds(_ text: Substring) -> Int? {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == "," })
        guard parts.count == 4, parts[1].count == 2, parts[2].count == 2, parts[3].count == 3,
              let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Int(parts[2]),
              let millis = Int(parts[3])
        else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1_000 + millis
    }
}

extension SubtitleCue {
    /// The cue's text on one line, as a person reads it.
    var text: String { lines.joined(separator: " ") }

    /// The cue as an SRT file shows it: without the voices, which only exports that carry speakers hold.
    var shown: SubtitleCue {
        SubtitleCue(number: number, start: start, end: end, lines: lines, voices: [])
    }
}
