import Foundation

/// What an ``Identifier`` names: a podcast, an episode, a command.
public protocol IdentifiedKind: Sendable {
    /// The kind's name, e.g. `podcast`; an entity's stream in the log is `<name>-<uuid>`.
    static var streamPrefix: String { get }
}

/// The id of a podcast, an episode or a command: a UUID that the caller chooses (the domain reads no
/// random source). A distinct type per kind, so that ids of different kinds cannot be mixed up.
///
/// Written as a lowercase UUID in JSON and in the log.
public struct Identifier<Kind: IdentifiedKind>: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    CustomStringConvertible
{
    public let rawValue: UUID

    public init(rawValue: UUID) { self.rawValue = rawValue }
    public init(_ rawValue: UUID) { self.rawValue = rawValue }

    /// Parses a UUID in either case.
    public init?(_ text: String) {
        guard let uuid = Self.parse(text) ?? UUID(uuidString: text) else { return nil }
        rawValue = uuid
    }

    /// The canonical 36-character form (`8-4-4-4-12` hex digits), parsed without Foundation: read
    /// models turn thousands of ids back into values per list.
    private static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { utf8 -> UUID? in
            guard utf8.count == 36 else { return nil }
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
                var at = 0
                for index in 0..<16 {
                    if at == 8 || at == 13 || at == 18 || at == 23 {
                        guard utf8[at] == UInt8(ascii: "-") else { return false }
                        at += 1
                    }
                    guard let high = hexValue(utf8[at]), let low = hexValue(utf8[at + 1]) else { return false }
                    out[index] = high << 4 | low
                    at += 2
                }
                return true
            }
            return parsed ? UUID(uuid: bytes) : nil
        }
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Lowercase, as written in events.
    public var description: String { rawValue.uuidString.lowercased() }

    /// The name of the entity's stream in the log.
    public var streamName: String { "\(Kind.streamPrefix)-\(description)" }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.description < rhs.description }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = Self(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not a UUID")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A command: every event of one commit carries its id, so the log can say what else a command
/// changed, and undo can name it.
public enum CommandKind: IdentifiedKind { public static let streamPrefix = "command" }

public typealias CommandID = Identifier<CommandKind>
