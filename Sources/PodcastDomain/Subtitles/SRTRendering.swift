/// The SRT text of cues: for each cue its number, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, its lines, then a
/// blank line. Every cue, the last included, ends with that blank line, so the file ends with `"\n\n"`
/// (or is empty without cues) and files can be concatenated. Lines end with `"\n"` only.
public enum SRTRendering {
    public static func render(_ cues: [SubtitleCue]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(cues.count * 96)
        for cue in cues {
            appendDecimal(cue.number, minimumDigits: 1, to: &bytes)
            bytes.append(newline)
            appendTimestamp(cue.start, fractionSeparator: comma, to: &bytes)
            bytes.append(contentsOf: arrow)
            appendTimestamp(cue.end, fractionSeparator: comma, to: &bytes)
            bytes.append(newline)
            for line in cue.lines {
                bytes.append(contentsOf: line.utf8)
                bytes.append(newline)
            }
            bytes.append(newline)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `HH:MM:SS,mmm` for a time in milliseconds; hours get a third digit past 99, negatives clamp to 0.
    public static func timestamp(_ milliseconds: Int, fractionSeparator: Character = ",") -> String {
        var bytes: [UInt8] = []
        appendTimestamp(milliseconds, fractionSeparator: fractionSeparator.asciiValue ?? comma, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let newline = UInt8(ascii: "\n")
    private static let comma = UInt8(ascii: ",")
    private static let arrow = Array(" --> ".utf8)

    private static func appendTimestamp(_ milliseconds: Int, fractionSeparator: UInt8, to bytes: inout [UInt8]) {
        let time = max(0, milliseconds)
        appendDecimal(time / 3_600_000, minimumDigits: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDecimal(time / 60_000 % 60, minimumDigits: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDecimal(time / 1_000 % 60, minimumDigits: 2, to: &bytes)
        bytes.append(fractionSeparator)
        appendDecimal(time % 1_000, minimumDigits: 3, to: &bytes)
    }

    /// A non-negative integer in decimal, zero-padded on the left to `minimumDigits`.
    private static func appendDecimal(_ value: Int, minimumDigits: Int, to bytes: inout [UInt8]) {
        let first = bytes.count
        var rest = value
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while rest > 0
        while bytes.count - first < minimumDigits { bytes.append(UInt8(ascii: "0")) }
        bytes[first...].reverse()
    }
}
