import CoreValues
import EventLog
import PodcastDomain

/// The first of a fold's two reads of the log: which events the entities' final states need.
///
/// It reads envelopes only (no payload is copied or decoded) and keeps, per entity, the positions of
/// the events that later ones do not overwrite (see ``NeededEvents``) and the time of its latest
/// event: a few bytes per entity, however long the log. The second read decodes only the needed
/// events; in a replay, most edits of a field are overwritten by a later edit of the same field. The
/// stream names the entity: `podcast-<uuid>` or `episode-<uuid>`.
struct FoldPlan {
    struct Stream<Field: Hashable & Sendable> {
        var needed = NeededEvents<Field, UInt64>()
        /// The time of the entity's latest event, needed or not.
        var updatedAt: Timestamp
    }

    /// The entity an event belongs to.
    enum Subject {
        case podcast(PodcastID)
        case episode(EpisodeID)
    }

    private(set) var podcasts: [PodcastID: Stream<Podcast.Field>] = [:]
    private(set) var episodes: [EpisodeID: Stream<Episode.Field>] = [:]
    /// The planned events: from the position after the fold's start through this one.
    private(set) var end: LogPosition

    var entityCount: Int { podcasts.count + episodes.count }

    /// Plans the events after `start`, read `runLength` at a time, through `head` or the end of the run
    /// in which `entityLimit` entities are reached (so a plan may hold more).
    init(
        log: EventLog, after start: LogPosition, through head: LogPosition, runLength: Int, entityLimit: Int,
        types: inout EventTypes
    ) throws {
        end = start
        while end < head, entityCount < entityLimit {
            let last = LogPosition(min(end.rawValue + UInt64(runLength), head.rawValue))
            try log.read(from: end.next, through: last) { envelope in try add(envelope, types: &types) }
            end = last
        }
    }

    private mutating func add(_ envelope: EventEnvelope, types: inout EventTypes) throws(ProjectionError) {
        let type = types.type(named: envelope.typeBytes)
        let position = envelope.position.rawValue
        let time = envelope.timestamp
        if let id = PodcastID(streamName: envelope.streamBytes) {
            podcasts[id, default: Stream(updatedAt: time)].add(position, at: time, type.podcastEffect)
        } else if let id = EpisodeID(streamName: envelope.streamBytes) {
            episodes[id, default: Stream(updatedAt: time)].add(position, at: time, type.episodeEffect)
        } else {
            throw .unreadableEvent(position: position, reason: "its stream, \(envelope.stream), is no podcast's or episode's")
        }
    }

    /// The needed events' positions, in log order, with their entities.
    func neededEvents() -> [(position: UInt64, subject: Subject)] {
        var events: [(position: UInt64, subject: Subject)] = []
        for (id, stream) in podcasts { events += stream.needed.elements.map { ($0, .podcast(id)) } }
        for (id, stream) in episodes { events += stream.needed.elements.map { ($0, .episode(id)) } }
        events.sort { $0.position < $1.position }
        return events
    }
}

extension FoldPlan.Stream {
    fileprivate mutating func add(_ position: UInt64, at time: Timestamp, _ effect: EventEffect<Field>?) {
        needed.append(position, effect: effect)
        updatedAt = time
    }
}
