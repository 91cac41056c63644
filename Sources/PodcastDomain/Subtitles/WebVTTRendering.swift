/// The WebVTT text of cues: the `WEBVTT` header, then for each cue its number, `HH:MM:SS.mmm -->
/// HH:MM:SS.mmm` and its lines as the SRT shows them, a voice span `<v Name>` opening each speaker's
/// words so that players and tools that read voices get the speaker as data. `&`, `<` and `>` in the
/// text are written as entities.
enum WebVTTRendering {
    static func render(_ cues: [SubtitleCue]) -> [UInt8] {
        var text = "WEBVTT\n\n"
        for cue in cues {
            text += "\(cue.number)\n" + SRTRendering.timestamp(cue.start, fractionSeparator: ".") + " --> "
                + SRTRendering.timestamp(cue.end, fractionSeparator: ".") + "\n"
            if cue.voices.count == 2, cue.lines.count == 2 {
                for (line, voice) in zip(cue.lines, cue.voices) {
                    text += "- " + voiceTag(voice) + escaped(line.dropFirst(2)) + "\n"
                }
            } else {
                for (index, line) in cue.lines.enumerated() {
                    text += (index == 0 ? cue.voices.first.map(voiceTag) ?? "" : "") + escaped(line[...]) + "\n"
                }
            }
            text += "\n"
        }
        return Array(text.utf8)
    }

    private static func voiceTag(_ voice: SubtitleVoice) -> String {
        voice.speaker.map { "<v " + escaped($0[...]) + ">" } ?? ""
    }

    private static func escaped(_ text: Substring) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}
