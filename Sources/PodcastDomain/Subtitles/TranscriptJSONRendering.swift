import CoreValues

/// The Podcasting 2.0 JSON transcript of cues (`{"version": "1.0.0", "segments": [...]}`): one segment
/// per voice, with its `speaker` when known, `startTime` and `endTime` in seconds, and the spoken words
/// as `body` (no `Name: ` prefix, no line breaks). The two voices of a two-speaker cue are two
/// segments with the cue's times.
enum TranscriptJSONRendering {
    static func render(_ cues: [SubtitleCue]) -> [UInt8] {
        var out = Array("{\n  \"version\": \"1.0.0\",\n  \"segments\": [".utf8)
        var first = true
        for cue in cues {
            for voice in cue.voices {
                out += Array((first ? "\n    {" : ",\n    {").utf8)
                first = false
                if let speaker = voice.speaker {
                    out += Array("\"speaker\": ".utf8)
                    JSONText.appendString(speaker, to: &out)
                    out += Array(", ".utf8)
                }
                out += Array("\"startTime\": \(seconds(cue.start)), \"endTime\": \(seconds(cue.end)), \"body\": ".utf8)
                JSONText.appendString(voice.text, to: &out)
                out.append(UInt8(ascii: "}"))
            }
        }
        out += Array((first ? "]\n}\n" : "\n  ]\n}\n").utf8)
        return out
    }

    /// Milliseconds as seconds with three decimals: `61.05` s is `61.050`.
    private static func seconds(_ milliseconds: Int) -> String {
        let fraction = milliseconds % 1_000
        return "\(milliseconds / 1_000)." + (fraction < 10 ? "00" : fraction < 100 ? "0" : "") + "\(fraction)"
    }
}
