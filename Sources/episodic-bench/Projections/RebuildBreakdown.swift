import CoreValues
import EventCodec
import EventLog
import PodcastDomain
import Projections

/// Where a rebuild's time goes, its steps taken one at a time on one core over the same log: the scan
/// alone; the first read (the replay's own `FoldPlan`, on one reader: the events' heads, and the
/// events the final states need); the needed payloads decoded; and, for comparison, every payload
/// decoded, as a replay that skipped nothing would; and what checking the hash chain adds to the first
/// read (every line's head read with the chain checked, less the same read without). The rebuild itself reads on every core, and
/// decodes and folds by entity shard while it reads.
struct RebuildBreakdown {
    var scanSeconds = 0.0
    var planSeconds = 0.0
    /// Reading every line's head with the chain checked, and without: medians of three.
    var chainedHeadsSeconds = 0.0
    var headsSeconds = 0.0
    var chainSeconds: Double { max(0, chainedHeadsSeconds - headsSeconds) }
    var neededDecodeSeconds = 0.0
    var allDecodeSeconds = 0.0
    var events = 0
    var needed = 0
    /// Decode time and count per event type, over every event, timed event by event.
    var decodeByType: [String: (count: Int, seconds: Double)] = [:]

    static func measure(library: String) throws -> RebuildBreakdown {
        var result = RebuildBreakdown()
        let log = try EventLog(at: library)
        result.scanSeconds = try timed {
            try log.read { _ in result.events += 1 }
        }
        var plan: FoldPlan?
        result.planSeconds = try timed {
            var chain = try log.chainCheck(after: .none)
            plan = try FoldPlan(
                readers: [LogReader(log)], after: .none, through: log.head, runLength: max(1, Int(log.head.rawValue)),
                entityLimit: .max, chain: &chain)
        }
        result.headsSeconds = try (0..<3).map { _ in try timed { try log.readHeads { _ in } } }.median
        result.chainedHeadsSeconds = try (0..<3).map { _ in
            try timed {
                var stretch = ChainStretch()
                try log.readHeads(from: LogPosition(1), through: nil, chain: &stretch) { _ in }
            }
        }.median
        let needed = plan!.neededPositions(after: .none)
        result.needed = needed.count
        // Each decode is timed, for the table by type; the clock costs some 50 ns a call, under 2 % of a decode.
        let clock = ContinuousClock()
        var neededSeconds = 0.0
        result.allDecodeSeconds = try timed {
            try log.read { envelope in
                let type = envelope.type, version = envelope.schemaVersion, payload = envelope.payload
                let start = clock.now
                _ = try EventCoding.decode(type: type, schemaVersion: version, payload: payload)
                let seconds = (clock.now - start).seconds
                result.decodeByType[type, default: (0, 0)].count += 1
                result.decodeByType[type, default: (0, 0)].seconds += seconds
                if needed.contains(envelope.position.rawValue) { neededSeconds += seconds }
            }
        } - result.scanSeconds
        result.neededDecodeSeconds = neededSeconds
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
