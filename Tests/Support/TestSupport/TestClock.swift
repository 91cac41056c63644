import CoreValues

/// Times for tests that must give the same events on every run: a fixed start, then one second per
/// tick. The domain takes its times from commands, so these are all a test needs.
public struct TestClock: Sendable {
    /// 2026-11-18T11:06:40Z, the instant every fixture starts from.
    public static let start = Timestamp(rawValue: 1_795_000_000_000)!

    /// The time the next tick moves past.
    public private(set) var now: Timestamp

    public init(at start: Timestamp = TestClock.start) { now = start }

    /// The next instant, one second after the last.
    public mutating func tick() -> Timestamp {
        now = Timestamp(rawValue: now.rawValue + 1_000)!
        return now
    }
}
