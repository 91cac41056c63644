/// The place of one event in the whole log: the n-th event ever appended.
///
/// Positions start at 1 and have no gaps. ``LogPosition/none`` (0) means "before the first event",
/// which is the head of an empty log.
public struct LogPosition: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Before the first event: the head of an empty log.
    public static let none = LogPosition(0)

    /// The position right after this one.
    public var next: LogPosition { LogPosition(rawValue + 1) }

    public static func < (lhs: LogPosition, rhs: LogPosition) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}
