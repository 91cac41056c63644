import CoreValues
import DomainTestSupport
import EventLog
import Foundation
import GRDB
import PodcastDomain
import Testing

@testable import Projections

@Suite("Read models")
struct ReadModelTests {
    @Test("flags follow the events: a cleared transcript, a retitle after a render, a new render")
    func flagsFollowEvents() throws {
        let studio = try ShellWrittenLibrary()
        let readModel = try studio.openReadModel()
        func summary() throws -> EpisodeSummary {
            try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
            return try #require(readModel.episodes(EpisodeQuery(podcast: Scene.show)).first)
        }
        try studio.must(Scene.createShow())
        try studio.must(Scene.createEpisode(1, "Pilot"))
        #expect(try summary().hasTranscript == false)

        try studio.must(Scene.importTranscript(1))
        #expect(try summary().hasTranscript == true)
        try studio.must(Scene.on(1, .clearTranscript))
        #expect(try summary().hasTranscript == false)

        try studio.must(Scene.on(1, .setBackground(TestContent.image("bg"))))
        let inputs = try #require(studio.domain.episodes[Scene.episode(1)]?.live?.thumbnailInputs)
        let render = RenderedThumbnail(image: TestContent.image("thumb", 1024, 576), format: .jpeg, inputs: inputs)
        try studio.must(Scene.on(1, .recordThumbnail(render)))
        #expect(try summary().hasThumbnail == true)
        #expect(try summary().thumbnailOutdated == false)

        try studio.must(Scene.on(1, .retitle("Pilot, take two")))
        #expect(try summary().thumbnailOutdated == true)

        let newInputs = try #require(studio.domain.episodes[Scene.episode(1)]?.live?.thumbnailInputs)
        try studio.must(Scene.on(1, .recordThumbnail(RenderedThumbnail(image: TestContent.image("thumb2", 1024, 576), format: .jpeg, inputs: newInputs))))
        #expect(try summary().thumbnailOutdated == false)
        #expect(try summary().title == "Pilot, take two")
    }

    @Test("the SRT flags: made from the current transcript, then out of date when it is replaced")
    func srtFlags() throws {
        let studio = try ShellWrittenLibrary()
        try studio.must(Scene.createShow())
        try studio.must(Scene.createEpisode(1, "Pilot"))
        try studio.must(Scene.importTranscript(1, "00:00:01\nHost\nHello.\n"))
        let transcript = TestContent.blob("00:00:01\nHost\nHello.\n")
        try studio.must(Scene.on(1, .recordSubtitles(SubtitlesRef(blob: TestContent.blob("srt"), cueCount: 1, transcript: transcript))))
        let readModel = try studio.openReadModel()
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        var episode = try #require(readModel.episodes(EpisodeQuery(podcast: Scene.show)).first)
        #expect(episode.hasSRT && !episode.srtOutdated)

        try studio.must(Scene.importTranscript(1, "00:00:02\nHost\nHello again.\n"))
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        episode = try #require(readModel.episodes(EpisodeQuery(podcast: Scene.show)).first)
        #expect(episode.hasSRT && episode.srtOutdated)
        #expect(try readModel.episodes(EpisodeQuery(podcast: Scene.show, filters: [.outdatedSRT])).count == 1)
        // Either outdated: the SRT is, the thumbnail (there is none) is not.
        #expect(try readModel.episodes(EpisodeQuery(podcast: Scene.show, filters: [.outdatedSRT, .outdatedThumbnail])).count == 1)
        #expect(try readModel.episodes(EpisodeQuery(podcast: Scene.show, filters: [.outdatedThumbnail])).isEmpty)
    }

    @Test("episode lists sort six ways, search titles without case or accents, filter on flags, and page")
    func episodeQueries() throws {
        let studio = try ShellWrittenLibrary()
        try studio.must(Scene.createShow())
        let titles = ["Café society", "apples", "Zebra crossing", "été indien", "Bananas"]
        for (i, title) in titles.enumerated() {
            try studio.must(Scene.createEpisode(i + 1, title, number: [3, 1, 5, 2, 4][i], publish: [10, nil, 30, 20, 5][i]))
        }
        try studio.must(Scene.importTranscript(2))
        try studio.must(Scene.importTranscript(4))
        let readModel = try studio.openReadModel()
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        func titlesOf(_ query: EpisodeQuery) throws -> [String] { try readModel.episodes(query).map(\.title) }
        let show = Scene.show

        #expect(try titlesOf(EpisodeQuery(podcast: show)) == ["Zebra crossing", "Bananas", "Café society", "été indien", "apples"])
        #expect(try readModel.episodes(EpisodeQuery(podcast: show, sort: .number)).map(\.number) == [1, 2, 3, 4, 5])
        #expect(try titlesOf(EpisodeQuery(podcast: show, sort: .title)) == ["apples", "Bananas", "Café society", "été indien", "Zebra crossing"])
        #expect(try titlesOf(EpisodeQuery(podcast: show, sort: .titleDescending)) == ["Zebra crossing", "été indien", "Café society", "Bananas", "apples"])
        // Undated episodes come first in ascending date order, last in descending.
        #expect(try titlesOf(EpisodeQuery(podcast: show, sort: .date)) == ["apples", "Bananas", "Café society", "été indien", "Zebra crossing"])
        #expect(try titlesOf(EpisodeQuery(podcast: show, sort: .dateDescending)) == ["Zebra crossing", "été indien", "Café society", "Bananas", "apples"])

        #expect(try titlesOf(EpisodeQuery(podcast: show, search: "CAFE")) == ["Café society"])
        #expect(try titlesOf(EpisodeQuery(podcast: show, search: "Ete")) == ["été indien"])
        #expect(try titlesOf(EpisodeQuery(podcast: show, search: "AN")) == ["Bananas"])
        #expect(try titlesOf(EpisodeQuery(podcast: show, search: "IEN")) == ["été indien"])
        #expect(try titlesOf(EpisodeQuery(podcast: show, search: "%")) == [])
        #expect(try titlesOf(EpisodeQuery(podcast: show, filters: [.missingTranscript])) == ["Zebra crossing", "Bananas", "Café society"])
        // Filters of one kind are alternatives: no transcript or no thumbnail (none has a thumbnail) is
        // every episode with an "a"; kinds together must all hold.
        #expect(try titlesOf(EpisodeQuery(podcast: show, search: "a", filters: [.missingTranscript, .missingThumbnail])) == ["Zebra crossing", "Bananas", "Café society", "apples"])
        #expect(try titlesOf(EpisodeQuery(podcast: show, filters: [.missingTranscript, .outdatedSRT])) == [])
        #expect(try titlesOf(EpisodeQuery(podcast: show, limit: 2, offset: 1)) == ["Bananas", "Café society"])
        #expect(try titlesOf(EpisodeQuery(podcast: Scene.other)) == [])
    }

    @Test("podcasts are listed newest first with their counts; a delete removes the podcast and its episodes")
    func podcastsAndCascade() throws {
        let studio = try ShellWrittenLibrary()
        try studio.must(.podcast(Scene.show, .create(id: Scene.show, name: "Older", at: Scene.monday)))
        try studio.must(.podcast(Scene.other, .create(id: Scene.other, name: "Newer", at: Timestamp(rawValue: Scene.monday.rawValue + 60_000)!)))
        try studio.must(Scene.createEpisode(1, "One"))
        try studio.must(Scene.createEpisode(2, "Two"))
        try studio.must(Scene.importTranscript(1))
        try studio.must(.episode(Scene.episode(3), podcast: Scene.other, .create(id: Scene.episode(3), title: "Elsewhere", at: Scene.monday)))
        let readModel = try studio.openReadModel()
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }

        let podcasts = try readModel.podcasts()
        #expect(podcasts.map(\.name) == ["Newer", "Older"])
        #expect(podcasts[1].episodeCount == 2)
        #expect(podcasts[1].missingTranscriptCount == 1)
        #expect(podcasts[1].missingThumbnailCount == 2)
        #expect(try readModel.episode(Scene.episode(1))?.transcript == BlobStore.reference(for: Array("00:00:01\nHost\nHello.\n".utf8)))

        try studio.must(.podcast(Scene.show, .delete))
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        #expect(try readModel.podcasts().map(\.name) == ["Newer"])
        #expect(try readModel.episodes(EpisodeQuery(podcast: Scene.show)).isEmpty)
        #expect(try readModel.episode(Scene.episode(1)) == nil)
        #expect(try readModel.episode(Scene.episode(3))?.title == "Elsewhere")
    }

    @Test("the episode detail holds the light fields, the settings and the references")
    func episodeDetail() throws {
        let studio = try ShellWrittenLibrary()
        try studio.must(Scene.createShow())
        try studio.must(.podcast(Scene.show, .setDefaultOverlay(TestContent.image("overlay"))))
        try studio.must(Scene.createEpisode(1, "Pilot", number: 42, publish: 3))
        try studio.must(Scene.on(1, .describe("First one")))
        try studio.must(Scene.on(1, .changeThumbnailSettings(ThumbnailSettings(fontSize: 90))))
        let readModel = try studio.openReadModel()
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }

        let detail = try #require(try readModel.episode(Scene.episode(1)))
        #expect(detail.number == 42)
        #expect(detail.description == "First one")
        #expect(detail.thumbnailSettings.fontSize == 90)
        #expect(detail.thumbnailText == .episodeNumber && detail.thumbnailWords == "EP 42")
        #expect(detail.overlay == TestContent.image("overlay"))
        #expect(detail.publishDate == Timestamp(rawValue: Scene.monday.rawValue + 3 * 86_400_000))
        #expect(detail.updatedAt > detail.createdAt)
    }

    @Test("a list whose ids or times were edited by hand into something else is refused, naming the value")
    func handEditedRows() throws {
        let studio = try ShellWrittenLibrary()
        try studio.must(Scene.createShow())
        try studio.must(Scene.createEpisode(1, "Pilot", publish: 2))
        let readModel = try studio.openReadModel()
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        let query = EpisodeQuery(podcast: Scene.show)
        #expect(try readModel.episodes(query).first?.publishDate == Timestamp(rawValue: Scene.monday.rawValue + 2 * 86_400_000))

        // Times are milliseconds since 1970: one before 1970 or after 9999 is no `Timestamp`.
        let edits: [(column: String, value: any DatabaseValueConvertible, named: String)] = [
            ("created_at", -1, "-1"), ("updated_at", Int64.max, String(Int64.max)),
            ("publish_date", Timestamp.validMilliseconds.upperBound, String(Timestamp.validMilliseconds.upperBound)),
            ("id", String(Scene.episode(1).description.dropLast()), String(Scene.episode(1).description.dropLast())),
            ("id", Scene.episode(1).description + "0", Scene.episode(1).description + "0"),
        ]
        for edit in edits {
            let original = try readModel.database.read { try DatabaseValue.fetchOne($0, sql: "SELECT \(edit.column) FROM sidebar_episodes") }
            try readModel.database.write { try $0.execute(sql: "UPDATE sidebar_episodes SET \(edit.column) = ?", arguments: [edit.value]) }
            #expect(throws: Decode.Failure(value: edit.named), "\(edit.column)") { try readModel.episodes(query) }
            try readModel.database.write { try $0.execute(sql: "UPDATE sidebar_episodes SET \(edit.column) = ?", arguments: [original]) }
        }
        // The tables are STRICT: a time written as text does not get in at all.
        #expect(throws: DatabaseError.self) {
            try readModel.database.write { try $0.execute(sql: "UPDATE sidebar_episodes SET created_at = '2026-11-21T04:53:55.123Z'") }
        }
        #expect(try readModel.episodes(query).count == 1)
    }

    @Test("read.sqlite links to the live generation's manifest, which names a file per projector, each in WAL mode with its checkpoint")
    func layout() throws {
        let studio = try ShellWrittenLibrary()
        try studio.must(Scene.createShow())
        // A library without read models gets them by a replay of the log.
        let readModel = try studio.openReadModel()
        #expect(try readModel.status(head: studio.log.head).allSatisfy { $0.isCurrent })
        try studio.must(Scene.createEpisode(1, "Pilot"))
        #expect(try readModel.status(head: studio.log.head).allSatisfy { $0.checkpoint == LogPosition(1) && $0.eventsBehind == 1 })
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }

        let link = try FileManager.default.destinationOfSymbolicLink(atPath: studio.path + "/read.sqlite")
        #expect(link == "read/000005.sqlite")
        let files = try readModel.database.read { try Row.fetchAll($0, sql: "SELECT name, file FROM main.projection_files ORDER BY file") }
        #expect(files.map { $0["name"] as String } == ["sidebar", "episode-detail", "search", "states"])
        #expect(files.map { $0["file"] as String } == ["000001-sidebar.sqlite", "000002-episode-detail.sqlite", "000003-search.sqlite", "000004-states.sqlite"])
        for schema in ["main", "sidebar", "episode_detail", "search", "states"] {
            #expect(try readModel.database.read { try String.fetchOne($0, sql: "PRAGMA \(schema).journal_mode") } == "wal", "\(schema)")
        }
        #expect(try readModel.database.read { try String.fetchAll($0, sql: "SELECT name FROM search.projections") } == ["search"])
        let status = try readModel.status(head: studio.log.head)
        #expect(status.map(\.name) == ["sidebar", "episode-detail", "search", "states"])
        #expect(status.allSatisfy { $0.isCurrent && $0.checkpoint == LogPosition(2) })
        // The WALs and their indexes stay when the last connection closes, for readers that cannot make them.
        let paths = [readModel.generation] + readModel.projectors.compactMap { readModel.file(of: $0.name) }
        _ = consume readModel
        for path in paths {
            #expect(FileManager.default.fileExists(atPath: path + "-wal") && FileManager.default.fileExists(atPath: path + "-shm"), "\(path)")
        }
    }
}
