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
