import DomainTestSupport
import EventLog
import PropertyBased
import Testing

@testable import Projections

@Suite("Replay")
struct ReplayPropertyTests {
    @Test("built step by step, after every command, a read model equals a full replay of the same log")
    func stepByStepEqualsReplay() async throws {
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int(Int32.max)).array(of: 5...40)) { choices in
            do {
                let studio = try StudioLibrary()
                let stepwise = try studio.openReadModel(batchSize: 3)
                for command in CommandPool.setup + choices.map(CommandPool.command(from:)) {
                    try studio.run(command)
                    try studio.log.write { _ in try stepwise.catchUp(with: studio.log) }
                }
                let stepwiseRows = try stepwise.dump()

                try stepwise.rebuild(log: studio.log)

                #expect(try stepwise.dump() == stepwiseRows)
                // And both agree with the domain's own view of which episodes are live.
                #expect(stepwiseRows["sidebar_episodes"]?.count == studio.domain.liveEpisodes.count)
                #expect(stepwiseRows["sidebar_podcasts"]?.count == studio.domain.livePodcasts.count)
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
