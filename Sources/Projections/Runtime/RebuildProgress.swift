/// How far a replay has come, for a progress bar.
public struct RebuildProgress: Sendable, Equatable {
    /// Events replayed so far, and in all.
    public var done: UInt64
    public var total: UInt64
    /// Events per second so far.
    public var rate: Double

    /// Seconds left at the current rate; nil before there is a rate.
    public var secondsLeft: Double? {
        guard rate > 0 else { return nil }
        return Double(total - min(done, total)) / rate
    }

    public var fraction: Double { total == 0 ? 1 : Double(min(done, total)) / Double(total) }
}
