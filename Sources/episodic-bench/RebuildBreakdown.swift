import CoreValues
import EventLog
import PodcastDomain

/// Where a rebuild's time goes, by taking its steps one at a time over the same log: the scan alone,
/// the scan and the payloads decoded (`EventCoding.decode`, as a fold calls it), then
/// the decoded events folded with `evolve` as `EntityFold` does. What the full rebuild takes beyond
/// that is the projectors' SQL and their row encoding.
struct RebuildBreakdown {
    var scanSeconds = 0.0
    var decodeSeconds = 0.0
    var foldSeconds = 0.0
    /// Decode time and count per event type, timed event by event.
    var decodeByType: [String: (count: Int, seconds: Double)] = [:]
    var events = 0

    static func measure(library: String) throws -> RebuildBreakdown {
        var result = RebuildBreakdown()
        let log = try EventLog(at: library)
        var count = 0
        result.scanSeconds = try timed {
            try log.read { envelope in
                if envelope.hasType("EpisodeCreated") { count += 1 }
            }
        }
        // Each decode is timed too, for the table by type; the clock costs some 50 ns a call, under
        // 1 % of a decode.
        let clock = ContinuousClock()
        result.decodeSeconds = try timed {
            try log.read { envelope in
                let type = envelope.type, version = envelope.schemaVersion, payload = envelope.payload
                let start = clock.now
                _ = try EventCoding.decode(type: type, schemaVersion: version, payload: payload)
                let seconds = (clock.now - start).seconds
                result.decodeByType[type, default: (0, 0)].count += 1
                result.decodeByType[type, default: (0, 0)].seconds += seconds
                result.events += 1
            }
        }
        var podcasts: [PodcastID: PodcastState] = [:]
        var episodes: [EpisodeID: EpisodeState] = [:]
        var touchedPodcasts = Set<PodcastID>(), touchedEpisodes = Set<EpisodeID>()
        var lastTime: Timestamp?
        result.foldSeconds = try timed {
            try log.read { envelope in
                let event = try EventCoding.decode(type: envelope.type, schemaVersion: envelope.schemaVersion, payload: envelope.payload)
                lastTime = envelope.timestamp
                switch event.payload {
                case let payload as any PodcastEventPayload:
                    podcasts[payload.podcastID] = PodcastDecider.evolve(podcasts[payload.podcastID] ?? .initial, event)
                    touchedPodcasts.insert(payload.podcastID)
                case let payload as any EpisodeEventPayload:
                    episodes[payload.episodeID] = EpisodeDecider.evolve(episodes[payload.episodeID] ?? .initial, event)
                    touchedEpisodes.insert(payload.episodeID)
                default: break
                }
            }
        }
        precondition(lastTime != nil || result.events == 0)
        return result
    }

    /// The types that take the most decode time, with their share of it.
    func heaviestTypes(_ n: Int) -> [(type: String, count: Int, microseconds: Double, share: Double)] {
        let total = decodeByType.values.reduce(0) { $0 + $1.seconds }
        return decodeByType.sorted { $0.value.seconds > $1.value.seconds }.prefix(n).map {
            ($0.key, $0.value.count, $0.value.seconds / Double($0.value.count) * 1e6, $0.value.seconds / total)
        }
    }
}
