import CoreValues
import EventLog
import PodcastDomain

extension Library {
    /// The episode's SRT file, and whether it was made from a transcript that has since changed.
    public func subtitles(of reference: EpisodeReference) throws -> (srt: [UInt8], outdated: Bool) {
        let id = try resolve(reference)
        let episode = try liveEpisode(id)
        guard let subtitles = episode.subtitles else { throw LibraryError.noSubtitles(id) }
        do {
            return (try store.blob(subtitles.blob), episode.subtitlesOutdated)
        } catch let error as EventLogError {
            throw LibraryError.blobUnreadable(error)
        }
    }

    /// The live episode, or the domain's refusal for a missing or deleted one.
    public func liveEpisode(_ id: EpisodeID) throws -> Episode {
        try episodeState(id).requireLive()
    }
}
