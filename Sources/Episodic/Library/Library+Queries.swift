import CoreValues
import EventLog
import Projections

/// What a full-text search found, and the transcripts it could not look in.
public struct SearchResults: Sendable {
    /// The best matches first.
    public var hits: [SearchHit]
    /// Transcripts that could not be indexed (their blobs are missing or damaged), so a search may miss
    /// words in them; ``Library/verify(progress:)`` names them too.
    public var problems: [SearchProblem]
}

extension Library {
    /// The position of the log's last event, as this instance last read it (at open, or when a call
    /// since brought it up to date). Zero for an empty library.
    public var head: LogPosition { log.head }

    /// Every live podcast with its counts, by name.
    public func podcasts() throws -> [PodcastSummary] {
        try query { try $0.podcasts() }
    }

    /// A podcast's live episodes with their derived flags, filtered, sorted and paged as `query` says.
    public func episodes(_ query: EpisodeQuery) throws -> [EpisodeSummary] {
        try self.query { try $0.episodes(query) }
    }

    /// The deleted episodes of `podcast` (of every podcast when nil), each with the command that
    /// deleted it, which ``undo(_:actor:force:dryRun:clock:)`` brings it back with.
    public func deletedEpisodes(in podcast: PodcastID?) throws -> [(episode: DeletedEpisode, deletedBy: CommandID?)] {
        let deleted = try query { try $0.deletedEpisodes(in: podcast) }
        return try deleted.map { episode in
            // The command of the stream's last event: the deletion, since the episode stays deleted.
            var last: CommandID?
            try store.read(stream: StreamID(domain: episode.id.streamName)) { last = $0.commandID }
            return (episode, last)
        }
    }

    /// Everything the read models hold about one episode; nil when it is deleted or unknown.
    public func episodeDetail(_ id: EpisodeID) throws -> EpisodeDetail? {
        try query { try $0.episode(id) }
    }

    /// Searches titles, descriptions and transcripts for `text`, taken as words (never as FTS5
    /// syntax); at most `limit` hits, of `podcast`'s episodes when one is given.
    public func search(_ text: String, in podcast: PodcastID? = nil, limit: Int = 20) throws -> SearchResults {
        try query { SearchResults(hits: try $0.search(text, in: podcast, limit: limit), problems: try $0.searchProblems()) }
    }
}
