import Foundation
import PodcastDomain

/// A podcast or an episode, when a command takes either (`history`, `show`).
public enum EntityID: Hashable, Sendable, CustomStringConvertible {
    case podcast(PodcastID)
    case episode(EpisodeID)

    /// The id of either kind, lowercase.
    public var description: String {
        switch self {
        case .podcast(let id): id.description
        case .episode(let id): id.description
        }
    }

    var uuid: UUID {
        switch self {
        case .podcast(let id): id.rawValue
        case .episode(let id): id.rawValue
        }
    }
}

extension Library {
    /// What `text` names: an id (of either kind, deleted ones too), a podcast's name, `<podcast>/<number>`,
    /// or a prefix of exactly one podcast's or episode's id, live or deleted.
    public func resolveEntity(_ text: String) throws -> EntityID {
        try query { try Workspace(log: store, readModel: $0).resolveEntity(text) }
    }
}
