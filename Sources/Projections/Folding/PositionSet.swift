/// A set of log positions within a stretch of the log, one bit each: the events a fold needs, tested
/// for every event of the stretch as it is read again.
package struct PositionSet: Sendable {
    /// The position of bit 0.
    private let first: UInt64
    private var words: [UInt64]

    /// An empty set for positions `first` through `last`.
    init(_ range: ClosedRange<UInt64>) {
        first = range.lowerBound
        words = Array(repeating: 0, count: Int((range.upperBound - range.lowerBound) / 64) + 1)
    }

    mutating func insert(_ position: UInt64) {
        let offset = position - first
        words[Int(offset / 64)] |= 1 << (offset % 64)
    }

    /// How many positions the set holds.
    package var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    package func contains(_ position: UInt64) -> Bool {
        guard position >= first else { return false }
        let offset = position - first, word = Int(offset / 64)
        return word < words.count && words[word] & (1 << (offset % 64)) != 0
    }
}
