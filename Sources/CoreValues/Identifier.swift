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
        guard let uuid = UUID(uuidString: text) else { return nil }
        rawValue = uuid
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
