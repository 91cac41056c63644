/// Where a turn's words break into lines and cues (SUBTITLES.md, "Where to break").
///
/// Every way of cutting the turn into cues of one or two lines of at most `maximumLineLength` display
/// columns is weighed, and the cheapest is kept (dynamic programming over the places between words,
/// trying each cue's one or two lines from each place). What costs:
/// - a cue ending anywhere but at a sentence end: least at a clause end (`, ; :`), more before a
///   conjunction or preposition, most mid-phrase; a line break inside a cue likewise, and far more after
///   an article, preposition, conjunction or possessive; most of all between the parts of a name, or a
///   number and what it counts, and before a dash standing alone (it would read as a speaker's dash);
/// - a two-line cue whose lines differ in length, twice as much when the top one is longer;
/// - each cue, so that cues are full; a short cue more; a cue whose share of the turn's time would be
///   under 1.2 s more still.
///
/// A word wider than a line (a long URL) is cut into line-wide pieces, kept in one cue where they fit.
/// The speaker's `Name:` stays with the first word unless that word cannot share its line.
enum CueBreaking {
    /// The cues of one turn. `duration`, in milliseconds, is the time the turn's speech takes, when
    /// known: cues too short to read in their share of it cost more.
    /// `lastLineWidth`, when given, asks for a last cue of one line at most that wide (to share a
    /// two-speaker cue); nil when that cannot be.
    static func cues(
        speaker: Substring?, words: [Substring], duration: Int?, lastLineWidth: Int? = nil
    ) -> [CueText]? {
        let tokens = Token.tokens(speaker: speaker, words: words)
        guard !tokens.isEmpty else { return [] }
        var breaking = Breaking(tokens: tokens, duration: duration, lastLineWidth: lastLineWidth)
        // Without `lastLineWidth` there is always a solution (every token fits a line); the fallback of a
        // token per cue is there so that no word can be lost if that ever stopped being true.
        guard let cues = breaking.solve() ?? (lastLineWidth == nil ? tokens.map { [[$0]] } : nil) else { return nil }
        let voice = speaker.map(String.init)
        return cues.map { lines in
            let spoken = lines.flatMap { $0 }.filter(\.spoken).map(\.text).joined(separator: " ")
            return CueText(
                lines: lines.map { $0.map(\.text).joined(separator: " ") },
                voices: [SubtitleVoice(speaker: voice, text: spoken)])
        }
    }

    /// A word, or a line-wide piece of a longer one, with its width and what it says about breaks.
    struct Token {
        var text: Substring
        var width: Int
        var spoken: Bool
        var traits: WordTraits

        static func tokens(speaker: Substring?, words: [Substring]) -> [Token] {
            var tokens: [Token] = []
            tokens.reserveCapacity(words.count + 1)
            if let speaker {
                let prefix = shortened(speaker) + ":"
                tokens.append(Token(text: prefix[...], width: DisplayWidth.columns(of: prefix), spoken: false, traits: []))
            }
            for word in words { appendPieces(of: word, to: &tokens) }
            return tokens
        }

        /// A name too wide for a line with its colon, cut to fit and ending with `…`; others as they are.
        private static func shortened(_ name: Substring) -> Substring {
            let room = SubtitleConventions.maximumLineLength - 1
            guard DisplayWidth.columns(of: name) > room else { return name }
            var kept = "", width = 0
            for character in name {
                let columns = DisplayWidth.columns(of: character)
                if width + columns > room - 1 { break }
                kept.append(character)
                width += columns
            }
            return (kept + "…")[...]
        }

        /// Cuts words wider than a line into pieces of at most `maximumLineLength` columns and a narrower
        /// remainder (a run of Chinese text has no blanks to break at).
        private static func appendPieces(of word: Substring, to tokens: inout [Token]) {
            let maximum = SubtitleConventions.maximumLineLength
            let width = DisplayWidth.columns(of: word)
            let traits = WordTraits(word)
            guard width > maximum else {
                tokens.append(Token(text: word, width: width, spoken: true, traits: traits))
                return
            }
            var pieceStart = word.startIndex, pieceWidth = 0
            var index = word.startIndex
            while index < word.endIndex {
                let columns = DisplayWidth.columns(of: word[index])
                if pieceWidth + columns > maximum {
                    tokens.append(Token(
                        text: word[pieceStart..<index], width: pieceWidth, spoken: true, traits: .continues))
                    (pieceStart, pieceWidth) = (index, 0)
                }
                pieceWidth += columns
                word.formIndex(after: &index)
            }
            tokens.append(Token(text: word[pieceStart...], width: pieceWidth, spoken: true, traits: traits))
        }
    }

    /// The costs, in tenths of a line-break's worth. Only their order and rough ratios matter.
    enum Cost {
        static let cue = 30
        static let secondLine = 10
        static let cueEndAtClause = 40
        static let cueEndBeforeOpener = 90
        static let cueEndMidPhrase = 150
        static let lineBreakBeforeOpener = 10
        static let lineBreakMidPhrase = 30
        static let afterWeakWord = 150
        static let insideName = 250
        static let afterNumber = 200
        static let insideWord = 400
        /// A cue narrower than this many columns costs this much per missing column.
        static let shortCueWidth = 20, perMissingColumn = 5
        /// A cue shown for less than this many milliseconds costs one per this many missing.
        static let comfortableDuration = 1_200, perMissingMilliseconds = 8
    }

    private struct Breaking {
        let tokens: [Token]
        let duration: Int?
        let lastLineWidth: Int?
        /// `offsets[i]`: the widths of tokens before `i`.
        let offsets: [Int]
        /// The cost of a line break or cue end between token `i - 1` and token `i`.
        let lineBreakCost: [Int], cueEndCost: [Int]
        let totalWeight: Int

        init(tokens: [Token], duration: Int?, lastLineWidth: Int?) {
            self.tokens = tokens
            self.duration = duration
            self.lastLineWidth = lastLineWidth
            var offsets = [0]
            offsets.reserveCapacity(tokens.count + 1)
            for token in tokens { offsets.append(offsets[offsets.count - 1] + token.width) }
            self.offsets = offsets
            var lineBreakCost = [Int](repeating: 0, count: tokens.count + 1)
            var cueEndCost = [Int](repeating: 0, count: tokens.count + 1)
            for place in 1..<tokens.count {
                (lineBreakCost[place], cueEndCost[place]) = Self.costs(tokens[place - 1], tokens[place])
            }
            self.lineBreakCost = lineBreakCost
            self.cueEndCost = cueEndCost
            self.totalWeight = max(1, offsets[tokens.count] + tokens.count - 1)
        }

        /// The costs of breaking a line, and of ending a cue, between `before` and `after`.
        static func costs(_ before: Token, _ after: Token) -> (line: Int, cue: Int) {
            if !before.spoken { return (Int.max / 8, Int.max / 4) }
            let traits = before.traits
            if traits.contains(.continues) { return (0, Cost.insideWord) }
            var line: Int, cue: Int
            if after.traits.contains(.dash) { return (Cost.insideWord, Cost.insideWord) }
            if traits.contains(.endsSentence) {
                (line, cue) = (0, 0)
            } else if traits.contains(.endsClause) {
                (line, cue) = (0, Cost.cueEndAtClause)
            } else if after.traits.contains(.opensClause) || traits.contains(.dash) {
                (line, cue) = (Cost.lineBreakBeforeOpener, Cost.cueEndBeforeOpener)
            } else {
                (line, cue) = (Cost.lineBreakMidPhrase, Cost.cueEndMidPhrase)
            }
            // A line ending `to,` still reads as ending on a weak word (and `srt-metrics.py` counts it so);
            // a cue ending there does not.
            if traits.contains(.weak) {
                line += Cost.afterWeakWord
                if !traits.contains(.endsSentence) && !traits.contains(.endsClause) { cue += Cost.afterWeakWord / 2 }
            }
            if !traits.contains(.endsSentence) && !traits.contains(.endsClause) {
                if traits.contains(.capitalized) && after.traits.contains(.capitalized) {
                    line += Cost.insideName
                    cue += Cost.insideName
                }
                if traits.contains(.number) && !after.traits.contains(.opensClause) {
                    line += Cost.afterNumber
                    cue += Cost.afterNumber
                }
            }
            return (line, cue)
        }

        /// Display columns of tokens `start..<end` on one line.
        func width(_ start: Int, _ end: Int) -> Int { offsets[end] - offsets[start] + end - start - 1 }

        /// The cost of a cue of `width` columns (its lines joined) holding tokens `start..<end`.
        func cueCost(width: Int, start: Int, end: Int) -> Int {
            var cost = Cost.cue + cueEndCost[end]
            if start > 0 || end < tokens.count {
                cost += max(0, Cost.shortCueWidth - width) * Cost.perMissingColumn
            }
            if let duration {
                let share = duration * (width + 1) / totalWeight
                cost += max(0, Cost.comfortableDuration - share) / Cost.perMissingMilliseconds
            }
            return cost
        }

        /// Top-heavy cues cost twice what bottom-heavy ones do.
        static func balance(_ top: Int, _ bottom: Int) -> Int {
            let difference = top - bottom
            return difference > 0 ? difference * difference * 3 / 10 : difference * difference * 3 / 20
        }

        /// The cheapest cues, as lines of tokens; nil when `lastLineWidth` cannot be met.
        ///
        /// Each cue from `start` to `end` is weighed once for its ends (its width is its lines' and the
        /// space between them, wherever the line break falls), then for its cheapest line break. Among
        /// equal costs the first found stays: breaks in order, two lines before one, starts in order.
        mutating func solve() -> [[[Token]]]? {
            let count = tokens.count
            let maximum = SubtitleConventions.maximumLineLength
            var best = [Int](repeating: Int.max, count: count + 1)
            // For each place: where the cue ending there starts, and its line break (nil: one line).
            var from = [(start: Int, middle: Int?)](repeating: (0, nil), count: count + 1)
            best[0] = 0
            for start in 0..<count where best[start] < Int.max {
                var end = start + 1
                while end <= count {
                    let whole = width(start, end)
                    if whole > 2 * maximum + 1 { break }
                    let cost = best[start] + cueCost(width: whole, start: start, end: end)
                    if lastLineWidth == nil || end < count {
                        var cheapest = Int.max, breakAt = 0
                        var middle = start + 1
                        while middle < end {
                            let top = width(start, middle)
                            if top > maximum { break }
                            let bottom = whole - top - 1
                            if bottom <= maximum {
                                let lineBreak = lineBreakCost[middle] + Self.balance(top, bottom)
                                if lineBreak < cheapest { (cheapest, breakAt) = (lineBreak, middle) }
                            }
                            middle += 1
                        }
                        if cheapest < Int.max { consider(cost + Cost.secondLine + cheapest, at: end, from: (start, breakAt)) }
                    }
                    if whole <= maximum, end < count || lastLineWidth.map({ whole <= $0 }) ?? true {
                        consider(cost, at: end, from: (start, nil))
                    }
                    end += 1
                }
            }
            guard best[count] < Int.max else { return nil }
            var cues: [[[Token]]] = []
            var place = count
            while place > 0 {
                let (start, middle) = from[place]
                if let middle {
                    cues.append([Array(tokens[start..<middle]), Array(tokens[middle..<place])])
                } else {
                    cues.append([Array(tokens[start..<place])])
                }
                place = start
            }
            return cues.reversed()

            func consider(_ cost: Int, at place: Int, from origin: (Int, Int?)) {
                if cost < best[place] {
                    best[place] = cost
                    from[place] = origin
                }
            }
        }
    }
}
