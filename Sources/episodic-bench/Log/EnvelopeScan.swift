import EventLog

/// The whole log read in order through `EventLog.read(from:)`, touching each envelope's
/// position, stream and type as a projection rebuild does first.
///
/// Each scan opens the log afresh, as a process starting up would. The log was just written, so its
/// files are in the page cache: this measures the reader, not the disk.
enum EnvelopeScan {
    static let repeats = 3

    /// What a scan counts; it must match what the studio made.
    struct Tally: Equatable {
        var events = 0
        var positionSum: UInt64 = 0
        var episodeEvents = 0
        var retitles = 0
    }

    /// The median rate of `repeats` scans, in events per second.
    static func eventsPerSecond(library: String, made studio: GeneratedCommits) throws -> Double {
        let expected = tally(of: studio)
        var rates: [Double] = []
        for _ in 0..<repeats {
            let log = try EventLog(at: library, options: BulkLog.options)
            var found = Tally()
            let seconds = try timed {
                try log.read(from: LogPosition(1)) { envelope in
                    found.events += 1
                    found.positionSum &+= envelope.position.rawValue
                    if envelope.streamBytes.starts(with: episodePrefix) { found.episodeEvents += 1 }
                    if envelope.hasType("EpisodeRetitled") { found.retitles += 1 }
                }
            }
            guard found == expected else { throw BenchFailure("the scan found \(found), expected \(expected)") }
            rates.append(Double(found.events) / seconds)
        }
        return rates.median
    }

    private static let episodePrefix = Array("episode-".utf8)

    private static func tally(of studio: GeneratedCommits) -> Tally {
        let events = studio.typeCounts.values.reduce(0, +)
        return Tally(
            events: events, positionSum: UInt64(events) * UInt64(events + 1) / 2,
            episodeEvents: studio.episodeEvents,
            retitles: studio.typeCounts["EpisodeRetitled", default: 0])
    }
}
