/// Reads the turns of a subtitle file given as a transcript: SRT (Descript, YouTube) or WebVTT
/// (Whisper, YouTube). Each cue becomes a turn that keeps its own times; its text is re-wrapped and
/// re-timed like any other transcript's.
///
/// SRT: blocks of a cue number, `00:00:01,000 --> 00:00:04,000` (anything after the end time, such as
/// coordinates, ignored), then text. WebVTT: the `WEBVTT` header, then cues of an optional identifier,
/// a timing line (settings after the end time ignored) and text; `NOTE`, `STYLE` and `REGION` blocks are
/// skipped. In both, styling tags (`<i>`, `<c.yellow>`, `<00:00:01.500>`, `{\an8}`) are removed, the
/// entities `&amp;` `&lt;` `&gt;` `&nbsp;` read as what they stand for, the `- ` that starts each
/// line of a two-speaker cue dropped, and a WebVTT voice `<v Name>` names the cue's speaker.
enum SubtitleFileParsing {
    static func turns(in lines: ArraySlice<TranscriptLine>, format: TranscriptFormat, warnings: inout TranscriptWarnings)
        -> [TranscriptTurn]
    {
        var turns: [TranscriptTurn] = []
        var index = lines.startIndex
        while index < lines.endIndex {
            // A block: the lines up to the next blank one.
            let blockStart = index
            index += 1
            while index < lines.endIndex, lines[index - 1].isFollowed(by: lines[index]) { index += 1 }
            let block = lines[blockStart..<index]
            let first = lines[blockStart]
            if format == .webVTT, Self.isVTTMetadata(first.text) { continue }
            // `FormatDetection` starts the lines at a cue, so text outside one has a cue above it.
            guard let timing = block.firstIndex(where: { $0.text.contains("-->") }) else {
                guard !turns.isEmpty else { continue }
                warnings.add(.textOutsideCue(line: first.number, text: first.text))
                append(block, to: &turns)
                continue
            }
            let line = block[timing]
            if let (start, end) = Self.times(line.text) {
                if end <= start { warnings.add(.rangeEnd(line: line.number, start: start, end: end)) }
                TurnParsing.start(&turns, line: line.number, start: start, end: end > start ? end : nil, warnings: &warnings)
            } else {
                let time = turns.last?.start ?? 0
                warnings.add(.damagedTimestamp(line: line.number, text: line.text, readAs: time, exact: false))
                TurnParsing.start(&turns, line: line.number, start: time, end: nil, warnings: &warnings)
            }
            append(block[(timing + 1)...], to: &turns)
        }
        return turns
    }

    /// Adds a cue's lines to the last turn; a voice names its speaker if it has none yet.
    private static func append(_ lines: ArraySlice<TranscriptLine>, to turns: inout [TranscriptTurn]) {
        for line in lines {
            let (text, speaker) = Self.cleaned(Self.withoutDialogueDash(line.text))
            if let speaker, turns[turns.count - 1].speaker == nil, turns[turns.count - 1].words.isEmpty {
                turns[turns.count - 1].speaker = Substring(speaker)
            }
            turns[turns.count - 1].appendWords(of: Substring(text))
        }
    }

    /// A line of a two-speaker cue without the `- ` that marks its speaker's turn.
    static func withoutDialogueDash(_ line: Substring) -> Substring {
        for dash in ["- ", "– ", "— "] where line.hasPrefix(dash) { return line.dropFirst(dash.count) }
        return line
    }

    /// The WebVTT header and the blocks that are not cues.
    static func isVTTMetadata(_ line: Substring) -> Bool {
        ["WEBVTT", "NOTE", "STYLE", "REGION"].contains { line == $0 || line.hasPrefix($0 + " ") || line.hasPrefix($0 + "\t") }
    }

    /// The start and end of a timing line, in milliseconds: the time before `-->` and the first word after it.
    static func times(_ line: Substring) -> (Int, Int)? {
        guard let arrow = line.range(of: "-->") else { return nil }
        let before = line[..<arrow.lowerBound].split(whereSeparator: { $0 == " " || $0 == "\t" }).last
        let after = line[arrow.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first
        guard let before, let after, let start = ClockTime(before.utf8), let end = ClockTime(after.utf8) else { return nil }
        return (start.milliseconds, end.milliseconds)
    }

    /// A cue line without its tags, with entities read, and the voice it names, if any.
    ///
    /// Linear in the line's length: the closing `>` or `}` looked for after an opening is kept for the
    /// openings before it, and once none is found, none is looked for again (a line of ten thousand
    /// unclosed `<c.a` would otherwise be read ten thousand times).
    static func cleaned(_ line: Substring) -> (text: String, speaker: String?) {
        var text = "", speaker: String?
        var index = line.startIndex
        var angle = NextCharacter(">", in: line), brace = NextCharacter("}", in: line)
        while index < line.endIndex {
            let character = line[index]
            if character == "<", let close = angle.after(index) {
                let tag = line[line.index(after: index)..<close]
                if tag.hasPrefix("v ") || tag.hasPrefix("v.") {
                    let name = tag.drop { $0 != " " }.trimmingPrefix(" ")
                    if speaker == nil, !name.isEmpty { speaker = String(name) }
                }
                text.append(" ")
                index = line.index(after: close)
            } else if character == "{", line[index...].hasPrefix("{\\"), let close = brace.after(index) {
                index = line.index(after: close)
            } else if character == "&", let entity = entities.first(where: { line[index...].hasPrefix($0.key) }) {
                text.append(entity.value)
                index = line.index(index, offsetBy: entity.key.count)
            } else {
                text.append(character)
                index = line.index(after: index)
            }
        }
        return (text, speaker)
    }

    private static let entities: [String: String] = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&nbsp;": " "]

    /// The first occurrence of a character at or after a place in a line, found by reading each part
    /// of the line at most once, for places asked for in increasing order.
    private struct NextCharacter {
        let character: Character
        let line: Substring
        /// The last answer, and the place it was looked for from; `found` nil means none to the end.
        private var searchedFrom: Substring.Index?
        private var found: Substring.Index?

        init(_ character: Character, in line: Substring) {
            self.character = character
            self.line = line
        }

        /// The first `character` at or after `index`.
        mutating func after(_ index: Substring.Index) -> Substring.Index? {
            if let searchedFrom, searchedFrom <= index, found.map({ $0 >= index }) ?? true { return found }
            searchedFrom = index
            found = line[index...].firstIndex(of: character)
            return found
        }
    }
}
