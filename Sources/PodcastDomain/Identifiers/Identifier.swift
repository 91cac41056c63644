import Foundation

/// What an ``Identifier`` names: a podcast or an episode.
public protocol IdentifiedKind: Sendable {
    /// The start of the kind's stream names in the log, e.g. `podcast`.
    static var streamPrefix: String { get }
}

/// The id of a podcast or an episode: a UUID that the caller chooses (the domain reads no random source).
///
/// Written as a lowercase UUID in JSON; the entity's stream in the log is `<prefix>-<uuid>`.
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

public enum PodcastKind: IdentifiedKind { public static let streamPrefix = "podcast" }
public enum EpisodeKind: IdentifiedKind { public static let streamPrefix = "episode" }

public typealias PodcastID = Identifier<PodcastKind>
public typealias EpisodeID = Identifier<EpisodeKind>
