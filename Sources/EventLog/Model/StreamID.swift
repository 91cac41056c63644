/// The name of one stream of events, usually one aggregate (`podcast-<uuid>`, `episode-<uuid>`).
///
/// Stream ids are identifiers, not prose: 1 to 200 characters from `A-Z a-z 0-9 . _ : -`.
/// That keeps them free of JSON escapes, so the log and the stream index can compare their raw bytes.
public struct StreamID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    /// Returns nil when `rawValue` is not a valid stream id.
    public init?(rawValue: String) {
        guard Identifier.isValid(rawValue, maxLength: 200) else { return nil }
        self.rawValue = rawValue
    }

    /// For ids read back from the log, which were checked when they were appended.
    init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// For literals in code and tests; traps on an invalid id.
    public init(stringLiteral value: String) {
        guard let id = StreamID(rawValue: value) else { preconditionFailure("invalid stream id \(value)") }
        self = id
    }

    public static func < (lhs: StreamID, rhs: StreamID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { rawValue }
}

/// The rule shared by stream ids and event types: short, printable, and never in need of a JSON escape.
enum Identifier {
    static func isValid(_ text: String, maxLength: Int) -> Bool {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength else { return false }
        return utf8.allSatisfy(isAllowed)
    }

    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: ":"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
