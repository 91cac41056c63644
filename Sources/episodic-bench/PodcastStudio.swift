import CoreValues
import EventLog
import Foundation

/// The commits of a podcast studio at work: about 50 shows and 10,000 episodes, created, retitled,
/// described, transcribed, subtitled and given thumbnails. The same seed gives the same commits.
///
/// Every commit names the version it expects of each stream it writes (`.noStream` for a new one), as a
/// command handler would, so appends pay for the optimistic concurrency check.
struct PodcastStudio {
    static let podcastLimit = 50
    static let episodeLimit = 10_000
    /// 2026-01-05T09:00:00Z.
    static let start = Date(timeIntervalSince1970: 1_767_603_600)

    private struct Podcast {
        let id: String
        var episodes = 0
    }

    private struct Episode {
        let id: String
        let stream: StreamID
        let number: Int
        var version = 1
    }

    private var random: SplitMix64
    private var podcasts: [Podcast] = []
    private var episodes: [Episode] = []
    private var time = Self.start
    /// How many events of each type were made: what a scan of the log must find again.
    private(set) var typeCounts: [String: Int] = [:]

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    /// The next command's commit, of `eventCount` events. Time moves on a few seconds per commit.
    mutating func commit(of eventCount: Int) -> Commit {
        time += Double.random(in: 1...8, using: &random)
        var events: [ProposedEvent] = []
        events.reserveCapacity(eventCount)
        var expectations: [StreamID: ExpectedVersion] = [:]
        for _ in 0..<eventCount {
            let (event, versionBefore) = nextEvent()
            if expectations[event.stream] == nil {
                expectations[event.stream] = versionBefore == 0 ? .noStream : .exactly(versionBefore)
            }
            typeCounts[event.type, default: 0] += 1
            events.append(event)
        }
        return Commit(
            events: events, expectations: expectations, commandID: CommandID(random.uuid()),
            actor: PodcastText.actors.randomElement(using: &random)!, timestamp: Timestamp(time)!)
    }

    /// The next event, and the version its stream had before it. Shows and episodes are created along
    /// the way (creations thin out once the limits are reached); everything else edits an episode.
    private mutating func nextEvent() -> (ProposedEvent, versionBefore: Int) {
        let creation = Double.random(in: 0..<1, using: &random)
        if podcasts.isEmpty || (creation < 0.002 && podcasts.count < Self.podcastLimit) {
            return (podcastCreated(), 0)
        }
        if episodes.isEmpty || (creation < 0.02 && episodes.count < Self.episodeLimit) {
            return (episodeCreated(), 0)
        }
        let at = episodeToEdit()
        let episode = episodes[at]
        episodes[at].version += 1
        let event: ProposedEvent
        switch Double.random(in: 0..<1, using: &random) {
        case ..<0.15: event = retitled(episode)
        case ..<0.30: event = described(episode)
        case ..<0.50: event = transcriptImported(episode)
        case ..<0.75: event = srtGenerated(episode)
        default: event = thumbnailRendered(episode)
        }
        return (event, episode.version)
    }

    /// Mostly one of the newest episodes, as a studio works on this week's shows; sometimes an old one.
    private mutating func episodeToEdit() -> Int {
        let recent = min(episodes.count, 200)
        return Double.random(in: 0..<1, using: &random) < 0.7
            ? episodes.count - 1 - Int.random(in: 0..<recent, using: &random)
            : Int.random(in: 0..<episodes.count, using: &random)
    }

    private mutating func podcastCreated() -> ProposedEvent {
        let id = random.uuid().uuidString.lowercased()
        podcasts.append(Podcast(id: id))
        let title = PodcastText.podcastTitle(using: &random)
        let host = PodcastText.actors.randomElement(using: &random)!
        return ProposedEvent(
            stream: StreamID(rawValue: "podcast-" + id)!, type: "PodcastCreated",
            json: #"{"podcastId":"\#(id)","title":"\#(title)","host":"\#(host)","language":"en","explicit":false}"#)
    }

    private mutating func episodeCreated() -> ProposedEvent {
        let show = Int.random(in: 0..<podcasts.count, using: &random)
        podcasts[show].episodes += 1
        let number = podcasts[show].episodes
        let id = random.uuid().uuidString.lowercased()
        let stream = StreamID(rawValue: "episode-" + id)!
        episodes.append(Episode(id: id, stream: stream, number: number))
        let title = PodcastText.episodeTitle(number: number, using: &random)
        let description = PodcastText.description(using: &random)
        let publishDate = (time + 7 * 86_400).formatted(.iso8601.year().month().day())
        return ProposedEvent(
            stream: stream, type: "EpisodeCreated",
            json: #"{"episodeId":"\#(id)","podcastId":"\#(podcasts[show].id)","title":"\#(title)","#
                + #""episodeNumber":\#(number),"publishDate":"\#(publishDate)","description":"\#(description)","#
                + #""thumbnail":{"template":"bold-center","fontFamily":"Inter","fontSize":72,"fontWeight":700,"#
                + ##""fontColorHex":"#FFFFFF","backgroundColorHex":"#1E1E2E","textPositionX":0.5,"##
                + #""textPositionY":0.5,"canvasWidth":1920,"canvasHeight":1080,"showEpisodeNumber":true}}"#)
    }

    private mutating func retitled(_ episode: Episode) -> ProposedEvent {
        let title = PodcastText.episodeTitle(number: episode.number, using: &random)
        return ProposedEvent(stream: episode.stream, type: "EpisodeRetitled", json: #"{"title":"\#(title)"}"#)
    }

    private mutating func described(_ episode: Episode) -> ProposedEvent {
        let description = PodcastText.description(using: &random)
        return ProposedEvent(
            stream: episode.stream, type: "EpisodeDescribed", json: #"{"description":"\#(description)"}"#)
    }

    private mutating func transcriptImported(_ episode: Episode) -> ProposedEvent {
        let transcript = blob(bytes: 20_000...150_000)
        let cues = transcript.byteCount / 80
        return ProposedEvent(
            stream: episode.stream, type: "TranscriptImported",
            json: #"{"transcript":\#(Self.json(transcript)),"format":"vtt","language":"en","cueCount":\#(cues),"#
                + #""durationSeconds":\#(cues * 4),"source":"whisper-large-v3"}"#,
            blobs: [transcript])
    }

    private mutating func srtGenerated(_ episode: Episode) -> ProposedEvent {
        let srt = blob(bytes: 15_000...120_000)
        return ProposedEvent(
            stream: episode.stream, type: "SRTGenerated",
            json: #"{"srt":\#(Self.json(srt)),"cueCount":\#(srt.byteCount / 70),"maxCharsPerLine":42,"maxLinesPerCue":2}"#,
            blobs: [srt])
    }

    private mutating func thumbnailRendered(_ episode: Episode) -> ProposedEvent {
        let image = blob(bytes: 80_000...900_000)
        return ProposedEvent(
            stream: episode.stream, type: "ThumbnailRendered",
            json: #"{"image":\#(Self.json(image)),"format":"png","width":1920,"height":1080,"templateVersion":3}"#,
            blobs: [image])
    }

    /// A reference to a blob that is never stored: the benchmark does not run verify.
    private mutating func blob(bytes: ClosedRange<Int>) -> BlobRef {
        BlobRef(sha256: random.sha256Hex(), byteCount: Int.random(in: bytes, using: &random))!
    }

    private static func json(_ ref: BlobRef) -> String {
        #"{"sha256":"\#(ref.sha256)","bytes":\#(ref.byteCount)}"#
    }
}
