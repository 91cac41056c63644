import DomainTestSupport
import EventLog
import Foundation
import GRDB
import PodcastDomain
import PropertyBased
import Testing

@testable import Projections

@Suite("Replay")
struct ReplayPropertyTests {
    @Test("built step by step, after every command, a read model equals a full replay of the same log, in any size of transaction")
    func stepByStepEqualsReplay() async throws {
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int(Int32.max)).array(of: 5...40)) { choices in
            do {
                let studio = try ShellWrittenLibrary()
                let stepwise = try studio.openReadModel(batchSize: 3)
                for command in CommandPool.setup + choices.map(CommandPool.command(from:)) {
                    try studio.run(command)
                    try studio.log.write { _ in try stepwise.catchUp(with: studio.log) }
                }
                let stepwiseRows = try stepwise.dump()

                try stepwise.rebuild(log: studio.log)
                #expect(try stepwise.dump() == stepwiseRows)

                // A replay in transactions of one or two entities (the plan of each stops there).
                let small = try GenerationBuild(in: try ReadModel.generationsFolder(in: studio.path).path, replaying: stepwise.projectors)
                defer { small.discard() }
                try ReadModel.catchUp(
                    try #require(small.database), projectors: stepwise.projectors, log: studio.log, batchSize: 2,
                    entitiesPerTransaction: 1, progress: nil)
                try small.database?.write { db in for projector in stepwise.projectors { try projector.finishReplay(db) } }
                #expect(try small.database?.read(ReadModel.dump) == stepwiseRows)

                // And both agree with the domain's own view of which episodes are live.
                #expect(stepwiseRows["sidebar_episodes"]?.count == studio.domain.liveEpisodes.count)
                #expect(stepwiseRows["sidebar_podcasts"]?.count == studio.domain.livePodcasts.count)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test("rows say what the domain's fold says: every flag, field and count, caught up in runs of commands or replayed")
    func rowsAgreeWithDomain() async throws {
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int(Int32.max)).array(of: 10...80)) { choices in
            do {
                let studio = try ShellWrittenLibrary()
                let readModel = try studio.openReadModel(batchSize: 4)
                // Caught up after every few commands, so that runs of events are folded together and
                // edits overwrite each other within a run.
                // The setup creates Scene.show and the episodes the production pool works on.
                for command in CommandPool.setup { try studio.must(command) }
                for (index, choice) in choices.enumerated() {
                    let command = choice % 3 == 0 ? CommandPool.command(from: choice / 3) : ProductionPool.command(from: choice / 3, in: studio.domain)
                    try studio.run(command)
                    if index % 5 == 4 { try studio.log.write { _ in try readModel.catchUp(with: studio.log) } }
                }
                try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
                try Self.expectRows(of: readModel, agreeWith: studio.domain)

                try readModel.rebuild(log: studio.log)
                try Self.expectRows(of: readModel, agreeWith: studio.domain)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// Every live podcast and episode has the row the domain's states say, and nothing else has one.
    static func expectRows(of readModel: ReadModel, agreeWith domain: InMemoryLibrary) throws {
        let podcasts = try readModel.podcasts()
        #expect(Set(podcasts.map(\.id)) == Set(domain.livePodcasts.map(\.id)))
        for podcast in domain.livePodcasts {
            let episodes = domain.liveEpisodes.filter { $0.podcastID == podcast.id }.sorted { $0.number < $1.number }
            let summary = try #require(podcasts.first { $0.id == podcast.id })
            #expect(summary.name == podcast.name)
            #expect(summary.description == podcast.description)
            #expect(summary.createdAt == podcast.createdAt)
            #expect(summary.artwork == podcast.artwork?.blob)
            #expect(summary.episodeCount == episodes.count)
            #expect(summary.missingTranscriptCount == episodes.filter { !$0.hasTranscript }.count)
            #expect(summary.missingThumbnailCount == episodes.filter { !$0.hasThumbnail }.count)

            let rows = try readModel.episodes(EpisodeQuery(podcast: podcast.id, sort: .number))
            #expect(rows.map(\.id) == episodes.map(\.id))
            for (row, episode) in zip(rows, episodes) {
                #expect(row.podcastID == episode.podcastID)
                #expect(row.title == episode.title)
                #expect(row.number == episode.number)
                #expect(row.publishDate == episode.publishDate)
                #expect(row.createdAt == episode.createdAt)
                #expect(row.hasTranscript == episode.hasTranscript, "\(episode)")
                #expect(row.hasSRT == episode.hasSubtitles, "\(episode)")
                #expect(row.srtOutdated == episode.subtitlesOutdated, "\(episode)")
                #expect(row.hasThumbnail == episode.hasThumbnail, "\(episode)")
                #expect(row.thumbnailOutdated == episode.thumbnailOutdated, "\(episode)")

                let detail = try #require(try readModel.episode(episode.id))
                #expect(detail.description == episode.description)
                #expect(detail.thumbnailSettings == episode.thumbnailSettings)
                #expect(detail.thumbnailText == episode.thumbnailText && detail.thumbnailWords == episode.effectiveThumbnailText)
                #expect(detail.transcript == episode.transcript)
                #expect(detail.subtitles == episode.subtitles)
                #expect(detail.background == episode.background)
                #expect(detail.overlay == episode.overlay)
                #expect(detail.thumbnail == episode.thumbnail)
                #expect(detail.updatedAt == row.updatedAt)
            }
        }
        for episode in domain.episodes.values.compactMap(\.existing) where domain.episodes[episode.id]?.live == nil {
            #expect(try readModel.episode(episode.id) == nil)
        }
    }
}
