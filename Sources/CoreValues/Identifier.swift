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
        var text = text
        guard let uuid = text.withUTF8({ UUID(canonical: UnsafeRawBufferPointer($0)) }) ?? UUID(uuidString: text) else { return nil }
        rawValue = uuid
    }

    /// Parses the canonical 36-character form (`8-4-4-4-12` hex digits, either case) from UTF-8 bytes.
    public init?(utf8: UnsafeRawBufferPointer) {
        guard let uuid = UUID(canonical: utf8) else { return nil }
        rawValue = uuid
    }

    /// Parses a stream name, `<prefix>-<uuid>` (see ``streamName``); nil for another kind's stream.
    public init?(streamName utf8: UnsafeRawBufferPointer) {
        var prefix = Kind.streamPrefix
        let length = prefix.utf8.count
        guard utf8.count == length + 37, utf8[length] == UInt8(ascii: "-"),
            prefix.withUTF8({ UnsafeRawBufferPointer(rebasing: utf8[..<length]).elementsEqual(UnsafeRawBufferPointer($0)) })
        else { return nil }
        self.init(utf8: UnsafeRawBufferPointer(rebasing: utf8[(length + 1)...]))
    }

    /// Lowercase, as written in events.
    public var description: String { rawValue.canonicalText }

    /// The name of the entity's stream in the log.
    public var streamName: String { "\(Kind.streamPrefix)-\(description)" }

    /// The order of the lowercase text, found from the bytes: hex digits keep the bytes' order.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        withUnsafeBytes(of: lhs.rawValue.uuid) { a in withUnsafeBytes(of: rhs.rawValue.uuid) { b in a.lexicographicallyPrecedes(b) } }
    }

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

extension UUID {
    /// The canonical form in lowercase, written without Foundation's formatter: every row a read model
    /// writes names its entities, and every event its stream.
    var canonicalText: String {
        String(unsafeUninitializedCapacity: 36) { out in
            let digits: StaticString = "0123456789abcdef"
            withUnsafeBytes(of: uuid) { bytes in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    out[at] = digits.utf8Start[Int(byte >> 4)]
                    out[at + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    at += 2
                }
            }
            return 36
        }
    }

    /// Parses the canonical form (`8-4-4-4-12` hex digits, either case) without Foundation: read models
    /// turn thousands of ids back into values per list, and a replay a million stream names. Outside
    /// ``Identifier``, so that it runs as plain code rather than generic code.
    init?(canonical utf8: UnsafeRawBufferPointer) {
        guard utf8.count == 36, utf8[8] == UInt8(ascii: "-"), utf8[13] == UInt8(ascii: "-"), utf8[18] == UInt8(ascii: "-"),
            utf8[23] == UInt8(ascii: "-")
        else { return nil }
        // Without branches: ids are random, so a branch on "digit or letter" would be mispredicted half
        // the time. A byte that is not a hex digit sets `invalid`.
        var invalid: UInt8 = 0
        @inline(__always) func byte(at offset: Int) -> UInt8 {
            let high = utf8[offset], low = utf8[offset + 1]
            invalid |= Self.notHex(high) | Self.notHex(low)
            return Self.hexValue(high) << 4 | Self.hexValue(low)
        }
        let uuid: uuid_t = (
            byte(at: 0), byte(at: 2), byte(at: 4), byte(at: 6), byte(at: 9), byte(at: 11), byte(at: 14), byte(at: 16),
            byte(at: 19), byte(at: 21), byte(at: 24), byte(at: 26), byte(at: 28), byte(at: 30), byte(at: 32), byte(at: 34))
        guard invalid == 0 else { return nil }
        self.init(uuid: uuid)
    }

    /// A hex digit's value, in either case: the low four bits, plus 9 for a letter (whose bit 6 is set).
    @inline(__always)
    private static func hexValue(_ digit: UInt8) -> UInt8 {
        (digit & 0x0F) &+ 9 &* (digit >> 6)
    }

    /// 1 when `digit` is no hex digit, else 0, found without a branch.
    @inline(__always)
    private static func notHex(_ digit: UInt8) -> UInt8 {
        let decimal: UInt8 = digit &- UInt8(ascii: "0") < 10 ? 1 : 0
        let letter: UInt8 = (digit | 0x20) &- UInt8(ascii: "a") < 6 ? 1 : 0
        return 1 &- (decimal | letter)
    }
}
