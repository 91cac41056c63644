import CoreValues
import EventCodec
import EventLog
import Foundation
import PodcastDomain
import PostgresLog
import Projections

extension Library {
    /// Calls `body` with each event `filter` admits, in log order, from `filter.since` to `filter.until`
    /// (or the head), after catching up with what others appended (a shared library's teammates
    /// included). Reading takes no lock; memory stays constant but for the episodes' podcasts, which a
    /// podcast filter remembers.
    public func readLog(_ filter: LogFilter, _ body: (LoggedEvent) throws -> Void) throws {
        try refreshLog()
        try readLog(filter, from: filter.start, body)
    }

    /// Like ``readLog(_:_:)``, then waits for new events and shows them as they are appended, until
    /// `keepGoing` says to stop. A write to the library's log folder wakes the wait at once (inotify), and
    /// a shared library's server as soon as a commit lands (`LISTEN`/`NOTIFY`); `pollInterval` (by
    /// default 200 ms, and 5 s for a shared library) is only what a lost wake-up costs. A shared library's server that goes away is looked for at each
    /// interval; when it is back, a notice says so, and the events go on after the last one shown.
    public func followLog(
        _ filter: LogFilter, pollInterval: Duration? = nil, keepGoing: () -> Bool,
        _ body: (LoggedEvent) throws -> Void
    ) throws {
        // A shared library's server says when it grows: its poll is only the fallback, and each costs a query.
        let pollInterval = pollInterval ?? (store is SharedStore ? .seconds(5) : .milliseconds(200))
        var next = filter.start
        var podcasts = EpisodePodcasts(log: store)
        var lost = false
        while keepGoing() {
            try refreshLog()
            if let shared = store as? SharedStore {
                if case .failed = shared.lastContact {
                    lost = true
                } else if lost {
                    lost = false
                    tell(.reconnected(resumingAfter: max(next.rawValue, 1) - 1))
                }
            }
            if store.head >= next {
                try readLog(filter, from: next, podcasts: &podcasts, body)
                next = store.head.next
            }
            if let end = filter.end, next > end { return }
            guard keepGoing() else { return }
            store.waitForChange(timeout: pollInterval)
        }
    }

    /// ``readLog(_:_:)`` without catching up first: for the write path, which has caught up already and
    /// holds the writer lock.
    func readLog(_ filter: LogFilter, from start: LogPosition, _ body: (LoggedEvent) throws -> Void) throws {
        var podcasts = EpisodePodcasts(log: store)
        try readLog(filter, from: start, podcasts: &podcasts, body)
    }

    /// A filter that names streams (an episode, `--stream`) and no podcast reads them through the
    /// stream index, so its cost follows those streams, not the log; any other reads the log. Lines
    /// come as appended: the audit shows every commit's `prev`, compacted or not.
    private func readLog(
        _ filter: LogFilter, from start: LogPosition, podcasts: inout EpisodePodcasts, _ body: (LoggedEvent) throws -> Void
    ) throws {
        let streams = filter.streams.union([filter.episode.map { StreamID(domain: $0.streamName) }].compactMap { $0 })
        func accepted(_ envelope: EventEnvelope) throws -> LoggedEvent? {
            if !streams.isEmpty, !streams.contains(where: envelope.isIn) { return nil }
            if !filter.types.isEmpty, !filter.types.contains(envelope.type) { return nil }
            if !filter.actors.isEmpty, !filter.actors.contains(envelope.actor) { return nil }
            if let command = filter.command, envelope.commandID != command { return nil }
            let position = envelope.position, time = envelope.timestamp
            if let since = filter.since, !since.precedes(position: position, time: time) { return nil }
            if let until = filter.until, !until.admits(position: position, time: time) { return nil }
            let event = try DomainEvents.decode(envelope)
            if let podcast = filter.podcast, try podcasts.podcast(of: event) != podcast { return nil }
            return LoggedEvent(record: RecordedEvent(envelope), event: event, line: String(decoding: envelope.line, as: UTF8.self))
        }
        guard filter.podcast == nil, !streams.isEmpty else {
            try store.readAsAppended(from: start, through: filter.end) { envelope in
                if let logged = try accepted(envelope) { try body(logged) }
            }
            return
        }
        let end = min(filter.end ?? log.head, log.head)
        var found: [LoggedEvent] = []
        for stream in streams {
            try store.readAsAppended(stream: stream) { envelope in
                guard envelope.position >= start, envelope.position <= end, let logged = try accepted(envelope) else { return }
                found.append(logged)
            }
        }
        for logged in found.sorted(by: { $0.record.position < $1.record.position }) { try body(logged) }
    }
}

/// Which podcast each event belongs to: a podcast's own, or an episode's podcast, remembered from its
/// creation (read once through the stream index for an episode created before the events read).
struct EpisodePodcasts {
    let log: any LogStore
    private var known: [EpisodeID: PodcastID] = [:]

    init(log: any LogStore) { self.log = log }

    mutating func podcast(of event: DomainEvent) throws -> PodcastID? {
        switch event {
        case .episodeCreated(let e):
            known[e.episodeID] = e.podcastID
            return e.podcastID
        default:
            break
        }
        switch event.aggregate {
        case .podcast(let id):
            return id
        case .episode(let id):
            if let podcast = known[id] { return podcast }
            var podcast: PodcastID?
            try log.read(stream: StreamID(domain: id.streamName)) { envelope in
                guard podcast == nil, case .episodeCreated(let e) = try DomainEvents.decode(envelope) else { return }
                podcast = e.podcastID
            }
            known[id] = podcast
            return podcast
        case .fonts, .log:
            return nil
        }
    }
}
