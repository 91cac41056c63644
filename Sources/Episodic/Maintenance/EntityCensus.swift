import EventLog
import PodcastDomain

/// Podcasts and episodes counted from the log's lifecycle events alone: a stream is live after its
/// created or restored event and deleted after its deleted event. Only the events' heads are read (no
/// payload is parsed), and a string is made only for those few events.
struct EntityCensus {
    private(set) var podcasts = LibraryInfo.Count(live: 0, deleted: 0)
    private(set) var episodes = LibraryInfo.Count(live: 0, deleted: 0)

    init(_ log: EventLog, through head: LogPosition) throws {
        var podcastStreams = Lifecycles(created: PodcastCreated.type, deleted: PodcastDeleted.type, restored: PodcastRestored.type)
        var episodeStreams = Lifecycles(created: EpisodeCreated.type, deleted: EpisodeDeleted.type, restored: EpisodeRestored.type)
        try log.readHeads(through: head) { event in
            if !podcastStreams.take(event) { _ = episodeStreams.take(event) }
        }
        podcasts = podcastStreams.count
        episodes = episodeStreams.count
    }

    /// One kind of entity's streams, live or deleted.
    private struct Lifecycles {
        let created: [UInt8]
        let deleted: [UInt8]
        let restored: [UInt8]
        var live: [String: Bool] = [:]

        init(created: String, deleted: String, restored: String) {
            self.created = Array(created.utf8)
            self.deleted = Array(deleted.utf8)
            self.restored = Array(restored.utf8)
        }

        /// Notes `event` if it is one of this kind's lifecycle events; false if it is not.
        mutating func take(_ event: EventHead) -> Bool {
            let type = event.typeBytes
            let isLive: Bool
            if type.elementsEqual(created) || type.elementsEqual(restored) {
                isLive = true
            } else if type.elementsEqual(deleted) {
                isLive = false
            } else {
                return false
            }
            live[String(decoding: event.streamBytes, as: UTF8.self)] = isLive
            return true
        }

        var count: LibraryInfo.Count {
            let alive = live.values.count { $0 }
            return LibraryInfo.Count(live: alive, deleted: live.count - alive)
        }
    }
}
