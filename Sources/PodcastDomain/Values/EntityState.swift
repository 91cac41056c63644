/// A podcast or an episode, as the domain tracks its life.
public protocol Entity: Hashable, Sendable {
    /// The refusal of a command on an entity that never existed.
    static var notFound: DomainError { get }
    /// The refusal of a command on this entity once deleted.
    var deletedError: DomainError { get }
}

/// An entity's stream folded: never created, live, or deleted. A deleted entity is kept whole, so that
/// undo can restore it as it was.
public enum EntityState<Value: Entity>: Hashable, Sendable {
    case initial
    case active(Value)
    case deleted(Value)

    /// The entity, if it exists and is not deleted.
    public var live: Value? {
        if case .active(let value) = self { return value }
        return nil
    }

    /// The entity, live or deleted.
    public var existing: Value? {
        switch self {
        case .initial: nil
        case .active(let value), .deleted(let value): value
        }
    }

    /// The entity, or the refusal a command on a missing or deleted one gets.
    public func requireLive() throws(DomainError) -> Value {
        switch self {
        case .initial: throw Value.notFound
        case .deleted(let value): throw value.deletedError
        case .active(let value): return value
        }
    }
}

public typealias PodcastState = EntityState<Podcast>
public typealias EpisodeState = EntityState<Episode>

extension Podcast: Entity {
    public static var notFound: DomainError { .podcastNotFound }
    public var deletedError: DomainError { .podcastDeleted(id) }
}

extension Episode: Entity {
    public static var notFound: DomainError { .episodeNotFound }
    public var deletedError: DomainError { .episodeDeleted(id) }
}

/// A state written down, for a shell that keeps the fold of a long stream: `{"life": "active", "value":
/// {...}}`, the value as events carry it.
extension EntityState: Codable where Value: Codable {
    private enum CodingKeys: String, CodingKey { case life, value }
    private enum Life: String, Codable { case initial, active, deleted }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Life.self, forKey: .life) {
        case .initial: self = .initial
        case .active: self = .active(try container.decode(Value.self, forKey: .value))
        case .deleted: self = .deleted(try container.decode(Value.self, forKey: .value))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .initial: try container.encode(Life.initial, forKey: .life)
        case .active(let value):
            try container.encode(Life.active, forKey: .life)
            try container.encode(value, forKey: .value)
        case .deleted(let value):
            try container.encode(Life.deleted, forKey: .life)
            try container.encode(value, forKey: .value)
        }
    }
}
