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
package struct FoldPlan {
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
    /// events, read on a thread of its own, and takes the runs' plans in log order. Every line read is
    /// held to the hash chain: `chain` has read the log through `start`, and goes on through the plan's end.
    package init(
        readers: [LogReader], after start: LogPosition, through head: LogPosition, runLength: Int, entityLimit: Int,
        chain: inout ChainCheck
    ) throws {
        end = start
        while end < head, entityCount < entityLimit {
            let runs = LogReader.runs(after: end, through: head, length: runLength, count: readers.count)
            for (part, stretch) in try LogReader.read(runs, with: readers, { try FoldPlan.of(run: $0, reader: $1) }) {
                try chain.join(stretch)
                merge(part)
            }
            end = LogPosition(runs.last!.upperBound)
        }
    }

    /// The plan of one run, read by one reader, with the stretch of the chain it read.
    private static func of(run: ClosedRange<UInt64>, reader: LogReader) throws -> (FoldPlan, ChainStretch) {
        var plan = FoldPlan(end: LogPosition(run.upperBound))
        var stretch = ChainStretch()
        try reader.log.readHeads(from: LogPosition(run.lowerBound), through: plan.end, chain: &stretch) { event in
            try plan.add(event, types: &reader.types)
        }
        return (plan, stretch)
    }

    private init(end: LogPosition) {
        self.end = end
    }

    /// Adds the plan of the run that follows this plan's.
    private mutating func merge(_ later: FoldPlan) {
        for (id, stream) in later.podcasts { podcasts[id, default: Stream()].append(contentsOf: stream) }
        for (id, stream) in later.episodes { episodes[id, default: Stream()].append(contentsOf: stream) }
    }

    private mutating func add(_ event: EventHead, types: inout EventTypes) throws(ProjectionError) {
        let type = types.type(named: event.typeBytes)
        let position = event.position.rawValue
        switch try Subject(stream: event.streamBytes, position: position) {
        case .episode(let id): episodes[id, default: Stream()].append(position, effect: type.episodeEffect)
        case .podcast(let id): podcasts[id, default: Stream()].append(position, effect: type.podcastEffect)
        case nil: break  // the library's fonts and the log's own events: no read model shows them
        }
    }

    /// The positions of the needed events, after `start`.
    package func neededPositions(after start: LogPosition) -> PositionSet {
        var needed = PositionSet(start.next.rawValue...max(end.rawValue, start.next.rawValue))
        for stream in podcasts.values { stream.elements.forEach { needed.insert($0) } }
        for stream in episodes.values { stream.elements.forEach { needed.insert($0) } }
        return needed
    }
}

extension FoldPlan.Subject {
    /// The entity of the event at `position`, from its stream's name; nil for the library's own streams
    /// (its fonts, the log's own), which no read model folds.
    init?(stream: UnsafeRawBufferPointer, position: UInt64) throws(ProjectionError) {
        if let id = EpisodeID(streamName: stream) {
            self = .episode(id)
        } else if let id = PodcastID(streamName: stream) {
            self = .podcast(id)
        } else if stream.elementsEqual(FontDecider.streamName.utf8) || stream.elementsEqual(LogDecider.streamName.utf8) {
            return nil
        } else {
            let name = String(decoding: stream, as: UTF8.self)
            throw .unreadableEvent(position: position, reason: "its stream, \(name), is no podcast's or episode's")
        }
    }
}
