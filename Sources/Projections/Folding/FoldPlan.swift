import EventLog
import PodcastDomain

/// The first of a fold's two reads of the log: which events the entities' final states need.
///
/// It reads envelopes only (no payload is copied or decoded) and keeps, per entity, the positions of
/// the events that later ones do not overwrite (see ``NeededEvents``): a few bytes per entity, however
/// long the log. The second read decodes only the needed events; in a replay, most edits of a field
/// are overwritten by a later edit of the same field. An entity's latest event is always needed, so
/// the second read also finds the time of each entity's latest change. The stream names the entity:
/// `podcast-<uuid>` or `episode-<uuid>`.
struct FoldPlan {
    /// The positions of a stream's needed events.
    typealias Stream<Field: Hashable & Sendable> = NeededEvents<Field, UInt64>

    /// The entity an event belongs to.
    enum Subject: Sendable {
        case podcast(PodcastID)
        case episode(EpisodeID)
    }

    private(set) var podcasts: [PodcastID: Stream<Podcast.Field>] = [:]
    private(set) var episodes: [EpisodeID: Stream<Episode.Field>] = [:]
    /// The planned events: from the position after the fold's start through this one.
    private(set) var end: LogPosition

    var entityCount: Int { podcasts.count + episodes.count }

    /// Plans the events after `start`, through `head` or the end of the round in which `entityLimit`
    /// entities are reached (so a plan may hold more). Each round gives each reader a run of `runLength`
    /// events, read on a thread of its own, and takes the runs' plans in log order.
    init(
        readers: [LogReader], after start: LogPosition, through head: LogPosition, runLength: Int, entityLimit: Int
    ) throws {
        end = start
        while end < head, entityCount < entityLimit {
            let runs = LogReader.runs(after: end, through: head, length: runLength, count: readers.count)
            for part in try LogReader.read(runs, with: readers, { try FoldPlan(run: $0, reader: $1) }) { merge(part) }
            end = LogPosition(runs.last!.upperBound)
        }
    }

    /// The plan of one run, read by one reader.
    init(run: ClosedRange<UInt64>, reader: LogReader) throws {
        end = LogPosition(run.upperBound)
        try reader.log.read(from: LogPosition(run.lowerBound), through: end) { envelope in try add(envelope, types: &reader.types) }
    }

    /// Adds the plan of the run that follows this plan's.
    private mutating func merge(_ later: FoldPlan) {
        for (id, stream) in later.podcasts { podcasts[id, default: Stream()].append(contentsOf: stream) }
        for (id, stream) in later.episodes { episodes[id, default: Stream()].append(contentsOf: stream) }
    }

    private mutating func add(_ envelope: EventEnvelope, types: inout EventTypes) throws(ProjectionError) {
        let type = types.type(named: envelope.typeBytes)
        let position = envelope.position.rawValue
        switch try Subject(envelope) {
        case .episode(let id): episodes[id, default: Stream()].append(position, effect: type.episodeEffect)
        case .podcast(let id): podcasts[id, default: Stream()].append(position, effect: type.podcastEffect)
        case nil: break  // the library's fonts: no read model shows them
        }
    }

    /// The positions of the needed events, after `start`.
    func neededPositions(after start: LogPosition) -> PositionSet {
        var needed = PositionSet(start.next.rawValue...max(end.rawValue, start.next.rawValue))
        for stream in podcasts.values { stream.elements.forEach { needed.insert($0) } }
        for stream in episodes.values { stream.elements.forEach { needed.insert($0) } }
        return needed
    }
}

extension FoldPlan.Subject {
    /// The entity of an event, from its stream's name; nil for the library's own streams (its fonts),
    /// which no read model folds.
    init?(_ envelope: EventEnvelope) throws(ProjectionError) {
        if let id = EpisodeID(streamName: envelope.streamBytes) {
            self = .episode(id)
        } else if let id = PodcastID(streamName: envelope.streamBytes) {
            self = .podcast(id)
        } else if envelope.isIn(StreamID(rawValue: FontLibrary.streamName)!) {
            return nil
        } else {
            throw .unreadableEvent(
                position: envelope.position.rawValue, reason: "its stream, \(envelope.stream), is no podcast's or episode's")
        }
    }
}
