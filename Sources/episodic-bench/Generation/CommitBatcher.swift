import CoreValues
import Episodic
import EventCodec
import EventLog
import Foundation
import PodcastDomain

/// Groups decisions into commits, with the expectations a command handler would write: each stream's
/// version before the commit (`.noStream` for a new one), so appends pay for the concurrency check.
///
/// The shell commits each command on its own: hundreds of thousands of commits for a million events,
/// each waiting for an fsync, would make generation the whole run. Grouping decisions (250 by default)
/// changes the frames (larger, compressing better) and gives a commit's events one command id and one
/// time, but not the events, their order or their payloads, which are all a rebuild reads.
struct CommitBatcher {
    private var versions: [StreamID: Int] = [:]
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func commit(of decisions: [[DomainEvent]], at time: Timestamp) -> Commit {
        var events: [ProposedEvent] = []
        var expectations: [StreamID: ExpectedVersion] = [:]
        for event in decisions.joined() {
            let proposed = ProposedEvent(domain: event)
            let version = versions[proposed.stream, default: 0]
            if expectations[proposed.stream] == nil { expectations[proposed.stream] = ExpectedVersion(after: version) }
            versions[proposed.stream] = version + 1
            events.append(proposed)
        }
        return Commit(
            events: events, expectations: expectations, commandID: CommandID(random.uuid()),
            actor: PodcastText.actors.randomElement(using: &random)!, timestamp: time)
    }
}
