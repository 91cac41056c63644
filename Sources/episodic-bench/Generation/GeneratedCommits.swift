import CoreValues
import EventLog
import PodcastDomain

/// The studio's events dealt out in commits of any size, for the log's own benchmarks: the events of
/// the one generator (``SimulatedProducer``, through the real deciders), cut into commits of as many
/// events as a benchmark asks for, each with the expectations a command handler would write. A
/// decision may straddle two commits; the log neither knows nor cares.
struct GeneratedCommits {
    private var director: SimulatedProducer
    private var batcher: CommitBatcher
    private var pending: ArraySlice<DomainEvent> = []
    /// How many events of each type were dealt, and how many to episodes' streams: what a scan of the
    /// log must find again.
    private(set) var typeCounts: [String: Int] = [:]
    private(set) var episodeEvents = 0

    /// `blobs` stores the few transcripts and images the events refer to.
    init(seed: UInt64, blobs: BlobStore) throws {
        let plan = LibraryPlan.log(seed: seed)
        director = SimulatedProducer(
            plan: plan,
            transcripts: try TranscriptPool.make(count: plan.transcripts, bytes: plan.transcriptBytes, seed: seed, blobs: blobs),
            images: try ImagePool.make(scale: plan.imageScale, count: plan.images, seed: seed, blobs: blobs))
        batcher = CommitBatcher(seed: seed)
    }

    /// The next `eventCount` events as one commit.
    mutating func commit(of eventCount: Int) -> Commit {
        while pending.count < eventCount { pending += director.nextDecision() }
        let events = Array(pending.prefix(eventCount))
        pending = pending.dropFirst(eventCount)
        for event in events {
            typeCounts[event.type, default: 0] += 1
            if case .episode = event.aggregate { episodeEvents += 1 }
        }
        return batcher.commit(of: [events], at: Timestamp(rawValue: director.clock)!)
    }
}
