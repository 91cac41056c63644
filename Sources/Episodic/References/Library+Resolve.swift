import PodcastDomain

extension Library {
    /// The podcast a reference names, as the library stands: for a query. Commands resolve their
    /// references under the writer lock instead.
    public func resolve(_ reference: PodcastReference) throws -> PodcastID {
        try query { try Workspace(log: store, readModel: $0).resolve(reference) }
    }

    /// The episode a reference names, as the library stands: for a query.
    public func resolve(_ reference: EpisodeReference) throws -> EpisodeID {
        try query { try Workspace(log: store, readModel: $0).resolve(reference) }
    }

    /// A podcast's state folded from its stream: live, deleted, or never created.
    public func podcastState(_ id: PodcastID) throws -> PodcastState {
        try Workspace(log: store, readModel: try readModel()).podcast(id)
    }

    /// An episode's state folded from its stream: live, deleted, or never created.
    public func episodeState(_ id: EpisodeID) throws -> EpisodeState {
        try Workspace(log: store, readModel: try readModel()).episode(id)
    }
}
