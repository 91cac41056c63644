/// Tells a speaker line from a line of speech, for the line right after a turn's timestamp.
///
/// A speaker line is short: at most 2 words, under 30 Characters, starting with a capital letter, and
/// without `.`, `,`, `?` or `!` (which names do not contain and short replies like `Oh.` or `Hi!` do).
/// One trailing `:` is allowed and dropped (`Host:`). Three-word lines are text, so `Mary Jane Watson`
/// is spoken text, not a speaker. A lone capitalised word such as `Yeah` counts as a speaker: the rule
/// cannot tell it from a name, and naming a speaker wrongly is the lesser harm than showing `Frank` as
/// something Frank said.
enum SpeakerName {
    static let maximumWords = 2
    /// Exclusive: a speaker line has fewer Characters than this.
    static let characterLimit = 30

    /// The name, or nil when the line is text.
    static func from(_ line: Substring) -> Substring? {
        var name = line
        if name.utf8.last == UInt8(ascii: ":") { name = name.dropLast() }
        // Long lines are rejected by their byte count before their Characters are counted.
        guard let first = name.first, first.isUppercase, name.utf8.count < characterLimit * 4,
              name.count < characterLimit
        else { return nil }
        var words = 1
        var previousWasBlank = false
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: "?"), UInt8(ascii: "!"), UInt8(ascii: ":"):
                return nil
            case _ where TranscriptLine.isBlank(byte):
                if !previousWasBlank { words += 1 }
                previousWasBlank = true
            default:
                previousWasBlank = false
            }
        }
        return words <= maximumWords ? name : nil
    }
}
