import PodcastDomain

/// A podcast or an episode, when a command takes either (`history`, `show`).
public enum EntityID: Hashable, Sendable {
    case podcast(PodcastID)
    case episode(EpisodeID)
}

extension Library {
    /// What `text` names: an id (of either kind, deleted ones too), `<podcast>/<number>`, a podcast's
    /// name or id prefix, or an episode's id prefix, tried in that order.
    public func resolveEntity(_ text: String) throws -> EntityID {
        try query { try resolveEntity(text, in: Workspace(log: store, readModel: $0)) }
    }

    private func resolveEntity(_ text: String, in workspace: Workspace) throws -> EntityID {
        if let podcast = PodcastID(text.trimmingCharacters(in: .whitespaces)) {
            if case .initial = try workspace.podcast(podcast) {
                return .episode(EpisodeID(rawValue: podcast.rawValue))
            }
            return .podcast(podcast)
        }
        do {
            return .podcast(try workspace.resolve(PodcastReference.text(text)))
        } catch LibraryError.podcastNotFound {
            return .episode(try workspace.resolve(EpisodeReference.text(text)))
        }
    }
}
