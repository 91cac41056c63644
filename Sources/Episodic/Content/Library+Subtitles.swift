import CoreValues
import EventLog
import PodcastDomain

extension Library {
    /// The episode's SRT file, and whether it was made from a transcript that has since changed.
    public func subtitles(of reference: EpisodeReference) throws -> (srt: [UInt8], outdated: Bool) {
        let (srt, episode, _) = try storedSubtitles(of: reference)
        return (srt, episode.subtitlesOutdated)
    }

    /// The episode's subtitles as a `format` file, and whether they were made from a transcript that
    /// has since changed.
    ///
    /// SRT is the stored file. WebVTT and JSON carry the speakers as data, which only the conversion
    /// knows: the transcript the subtitles were made from is converted again, and must give the stored
    /// SRT byte for byte. Subtitles an earlier version of Episodic made do not, and are refused with
    /// ``LibraryError/subtitlesFromEarlierVersion(_:)`` until converted again.
    public func subtitles(of reference: EpisodeReference, as format: SubtitleFileFormat) throws
        -> (bytes: [UInt8], outdated: Bool)
    {
        let (srt, episode, subtitles) = try storedSubtitles(of: reference)
        guard format != .srt else { return (srt, episode.subtitlesOutdated) }
        let transcript = try blob(subtitles.transcript)
        guard let converted = try? SubtitleConversion.convert(String(decoding: transcript, as: UTF8.self)),
              Array(converted.srt.utf8) == srt
        else { throw LibraryError.subtitlesFromEarlierVersion(episode.id) }
        return (format.render(converted), episode.subtitlesOutdated)
    }

    /// The episode's transcript as it was imported, and the defects read past then.
    public func transcript(of reference: EpisodeReference) throws -> (text: [UInt8], warnings: [TranscriptWarning]) {
        let episode = try liveEpisode(try resolve(reference))
        guard let transcript = episode.transcript else { throw DomainError.noTranscript }
        return (try blob(transcript), episode.transcriptWarnings)
    }

    /// The live episode's stored SRT file, the episode, and its subtitles' reference.
    private func storedSubtitles(of reference: EpisodeReference) throws -> (srt: [UInt8], episode: Episode, subtitles: SubtitlesRef) {
        let id = try resolve(reference)
        let episode = try liveEpisode(id)
        guard let subtitles = episode.subtitles else { throw LibraryError.noSubtitles(id) }
        return (try blob(subtitles.blob), episode, subtitles)
    }

    /// A blob the library holds, its read failures as ``LibraryError/blobUnreadable(_:)``.
    private func blob(_ ref: BlobRef) throws -> [UInt8] {
        do {
            return try store.blob(ref)
        } catch let error as EventLogError {
            throw LibraryError.blobUnreadable(error)
        }
    }

    /// The live episode, or the domain's refusal for a missing or deleted one.
    public func liveEpisode(_ id: EpisodeID) throws -> Episode {
        try episodeState(id).requireLive()
    }
}
