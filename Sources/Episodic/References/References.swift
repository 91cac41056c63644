import PodcastDomain

/// How a user names a podcast: by its id, a unique prefix of its id, or its name.
public enum PodcastReference: Hashable, Sendable, CustomStringConvertible {
    case id(PodcastID)
    /// An id, a unique id prefix, or a name: resolved in that order (a full id, then an exact name
    /// ignoring case and surrounding spaces, then an id prefix).
    case text(String)

    public var description: String {
        switch self {
        case .id(let id): id.description
        case .text(let text): text
        }
    }
}

/// How a user names an episode: by its id, a unique prefix of its id, or `<podcast>/<number>`.
public enum EpisodeReference: Hashable, Sendable, CustomStringConvertible {
    case id(EpisodeID)
    /// An id, `<podcast>/<number>`, or a unique id prefix, resolved in that order.
    case text(String)

    public var description: String {
        switch self {
        case .id(let id): id.description
        case .text(let text): text
        }
    }
}

/// How a user names a command: by its id, or a unique prefix of it, as `episodic log` shows them.
public enum CommandReference: Hashable, Sendable, CustomStringConvertible {
    case id(CommandID)
    /// An id, or a prefix of exactly one command's id.
    case text(String)

    public var description: String {
        switch self {
        case .id(let id): id.description
        case .text(let text): text
        }
    }
}
