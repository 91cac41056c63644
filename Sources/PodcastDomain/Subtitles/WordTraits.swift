/// What a word tells the line breaker about breaking after it or before it (SUBTITLES.md, "Where to
/// break"). English rules: other languages get the punctuation rules, which hold for them too.
struct WordTraits: OptionSet {
    let rawValue: UInt8

    /// Ends with `.` `?` `!` or `…` (closing quotes and brackets aside), and is not a title such as
    /// `Dr.` or an initial such as `J.`, which belong to the name after them.
    static let endsSentence = WordTraits(rawValue: 1 << 0)
    /// Ends with `,` `;` or `:`.
    static let endsClause = WordTraits(rawValue: 1 << 1)
    /// An article, preposition, conjunction or possessive: a line should not end on it.
    static let weak = WordTraits(rawValue: 1 << 2)
    /// A conjunction, preposition or relative word: a line may break before it.
    static let opensClause = WordTraits(rawValue: 1 << 3)
    /// Starts with a capital letter (and is not `I`): two in a row are taken for a name.
    static let capitalized = WordTraits(rawValue: 1 << 4)
    /// Holds a digit: kept with the word after it (`20 minutes`, `3 p.m.`).
    static let number = WordTraits(rawValue: 1 << 5)

    /// A piece of a word too wide for a line, which the next piece continues.
    static let continues = WordTraits(rawValue: 1 << 6)

    /// A dash standing alone (`-`, `–`, `—`): a line may break after it, never before it, where it
    /// would read as the dash of a two-speaker cue.
    static let dash = WordTraits(rawValue: 1 << 7)

    init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Read from the UTF-8 bytes without allocating: conversion of an hour's transcript looks at every
    /// word several times.
    init(_ word: Substring) {
        let bytes = Array(word.utf8)
        var first = 0, end = bytes.count
        while first < end, let width = Self.match(Self.openers, in: bytes, at: first) { first += width }
        var closed = end
        while closed > first, let width = Self.matchBefore(Self.closers, in: bytes, end: closed) { closed -= width }
        var bare = closed
        while bare > first, let width = Self.matchBefore(Self.punctuation, in: bytes, end: bare) { bare -= width }
        let key = Self.key(bytes[first..<bare])

        var traits: WordTraits = []
        if Self.matchBefore(Self.sentenceEnds, in: bytes, end: closed) != nil,
           !Self.abbreviations.contains(key), !Self.isInitial(bytes[first..<closed])
        {
            traits.insert(.endsSentence)
        }
        if Self.matchBefore(Self.clauseEnds, in: bytes, end: closed) != nil { traits.insert(.endsClause) }
        if Self.weakWords.contains(key) { traits.insert(.weak) }
        // `to,` in "add to, so" ends a phrase rather than opening one.
        if Self.clauseOpeners.contains(key) && closed == bare { traits.insert(.opensClause) }
        if Self.dashes.contains(word) { traits.insert(.dash) }
        if first < end, Self.startsCapitalized(word, bytes[first...]) { traits.insert(.capitalized) }
        if bytes[first..<end].contains(where: { (0x30...0x39).contains($0) }) { traits.insert(.number) }
        self = traits
    }

    /// Starts with a capital letter and is not `I`, `I'm`, `I’ve`…
    private static func startsCapitalized(_ word: Substring, _ bytes: ArraySlice<UInt8>) -> Bool {
        guard let lead = bytes.first else { return false }
        if lead == UInt8(ascii: "I") {
            let next = bytes.dropFirst().first
            return next != nil && next != UInt8(ascii: "'") && next != 0xE2 && !(next.map(isPunctuation) ?? false)
        }
        if (0x41...0x5A).contains(lead) { return true }
        return lead >= 0x80 && (word.first { $0.isLetter }?.isUppercase ?? false)
    }

    private static func isPunctuation(_ byte: UInt8) -> Bool { ".,;:!?".utf8.contains(byte) }

    /// `J.` or `J.R.R.`: capital letters each followed by a dot.
    private static func isInitial(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 2, bytes.count % 2 == 0 else { return false }
        return stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).allSatisfy { index in
            (0x41...0x5A).contains(bytes[index]) && bytes[index + 1] == UInt8(ascii: ".")
        }
    }

    /// Up to 8 ASCII bytes, lowercased, packed into an integer; 0 for anything longer or not ASCII,
    /// which no listed word is.
    static func key(_ bytes: some Collection<UInt8>) -> UInt64 {
        guard !bytes.isEmpty, bytes.count <= 8 else { return 0 }
        var key: UInt64 = 0
        for byte in bytes {
            guard byte < 0x80 else { return 0 }
            let lower = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
            key = key << 8 | UInt64(lower)
        }
        return key
    }

    private static func keys(_ words: [String]) -> Set<UInt64> { Set(words.map { key(Array($0.utf8)) }) }

    /// The byte length of one of `marks` starting at `index`, if one does.
    private static func match(_ marks: [[UInt8]], in bytes: [UInt8], at index: Int) -> Int? {
        marks.first { bytes[index...].starts(with: $0) }?.count
    }

    /// The byte length of one of `marks` ending at `end`, if one does.
    private static func matchBefore(_ marks: [[UInt8]], in bytes: [UInt8], end: Int) -> Int? {
        marks.first { $0.count <= end && bytes[(end - $0.count)..<end].elementsEqual($0) }?.count
    }

    private static let openers: [[UInt8]] = ["\"", "“", "‘", "(", "["].map { Array($0.utf8) }
    private static let closers: [[UInt8]] = ["\"", "”", "’", "'", ")", "]", "»"].map { Array($0.utf8) }
    private static let sentenceEnds: [[UInt8]] = [".", "?", "!", "…"].map { Array($0.utf8) }
    private static let clauseEnds: [[UInt8]] = [",", ";", ":"].map { Array($0.utf8) }
    /// What is stripped before a word is looked up: closers and the punctuation a sentence or clause
    /// ends with, as `srt-metrics.py` strips it before deciding that a line ends on a weak word.
    private static let punctuation: [[UInt8]] = closers + sentenceEnds + clauseEnds
    private static let dashes: Set<Substring> = ["-", "–", "—", "--"]
    /// Titles and abbreviations whose dot does not end a sentence, without that dot.
    private static let abbreviations = keys(["mr", "mrs", "ms", "dr", "prof", "st", "mt", "jr", "sr", "vs", "no", "e.g", "i.e"])
    /// Articles, prepositions, conjunctions and possessive determiners.
    static let weakWordList = [
        "a", "an", "the", "of", "to", "in", "on", "at", "for", "with", "from", "by", "and", "or", "but",
        "nor", "so", "as", "if", "that", "than", "your", "my", "our", "his", "her", "its", "their", "into",
        "onto", "upon", "about", "because", "whose", "via", "per",
    ]
    static let weakWords = keys(weakWordList)
    /// Words a clause or phrase starts with, before which a line or cue may break.
    private static let clauseOpeners = keys([
        "and", "or", "but", "nor", "so", "because", "which", "who", "whom", "whose", "that", "when", "where",
        "while", "if", "although", "though", "since", "until", "unless", "whereas", "then", "of", "to",
        "in", "on", "at", "for", "with", "from", "by", "about", "into", "over", "under", "between",
        "through", "after", "before", "without", "within", "like",
    ])
}
