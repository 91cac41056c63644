import CoreValues
import DomainTestSupport
import EventCodec
import EventLog
import Foundation
import GRDB
import PodcastDomain
import Testing

@testable import Projections

/// The states projector keeps each entity's state as of the checkpoint, so that a catch-up starts the
/// entities it meets from one row each instead of reading their streams from the log.
@Suite("States kept by the read model")
struct StatesProjectorTests {
    /// A library with a show and two episodes, one of them deleted, its read model caught up.
    func library() throws -> (studio: ShellWrittenLibrary, readModel: ReadModel) {
        let studio = try ShellWrittenLibrary()
        let readModel = try studio.openReadModel()
        try studio.must(Scene.createShow())
        try studio.must(Scene.createEpisode(1, "Pilot"))
        try studio.must(Scene.on(1, .describe("The first")))
        try studio.must(Scene.createEpisode(2, "Gone"))
        try studio.must(Scene.on(2, .delete))
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        return (studio, readModel)
    }

    /// Replaces episode 1's row with `bytes`.
    func keep(_ bytes: [UInt8], in readModel: ReadModel) throws {
        try readModel.database.write { db in
            try db.execute(sql: "UPDATE episode_states SET state = ? WHERE id = ?", arguments: [Data(bytes), Scene.episode(1).description])
            #expect(db.changesCount == 1)
        }
    }

    @Test("its rows are the domain's states of every entity, deleted ones included")
    func rowsAreTheDomainsStates() throws {
        let (studio, readModel) = try library()
        let rows = try readModel.database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, state FROM episode_states ORDER BY id").map { ($0["id"] as String, [UInt8]($0["state"] as Data)) }
        }
        #expect(rows.map(\.0) == [Scene.episode(1), Scene.episode(2)].map(\.description).sorted())
        for (id, bytes) in rows {
            let episode = try #require(EpisodeID(id))
            #expect(KeptStates.episode(episode, from: bytes) == studio.domain.episodes[episode])
        }
        #expect(studio.domain.episodes[Scene.episode(2)]?.live == nil, "one of them is deleted")
        let podcast = try readModel.database.read { db in try Data.fetchOne(db, sql: "SELECT state FROM podcast_states") }
        #expect(KeptStates.podcast(Scene.show, from: [UInt8](try #require(podcast))) == studio.domain.podcasts[Scene.show])
    }

    @Test("a catch-up starts an entity it meets from its row, not from its stream")
    func catchUpStartsFromTheRow() throws {
        // Given episode 1's row holding a description no event gave it: a forgery that shows where the fold started
        let (studio, readModel) = try library()
        var episode = try #require(studio.domain.episodes[Scene.episode(1)]?.live)
        episode.description = "Kept"
        try keep(try #require(try KeptStates.encode(EpisodeState.active(episode))), in: readModel)

        // When the episode is retitled and the read model caught up
        try studio.must(Scene.on(1, .retitle("Pilot, take two")))
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }

        // Then its row is the retitle folded over the kept state
        let detail = try #require(try readModel.episode(Scene.episode(1)))
        #expect(detail.title == "Pilot, take two")
        #expect(detail.description == "Kept")
    }

    @Test("a row that does not decode is passed over: the stream is read, and the row made again")
    func undecodableRowPassedOver() throws {
        let (studio, readModel) = try library()
        try keep(Array("not a state".utf8), in: readModel)

        try studio.must(Scene.on(1, .retitle("Pilot, take two")))
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }

        let detail = try #require(try readModel.episode(Scene.episode(1)))
        #expect(detail.title == "Pilot, take two")
        #expect(detail.description == "The first")
        let row = try readModel.database.read { db in
            try Data.fetchOne(db, sql: "SELECT state FROM episode_states WHERE id = ?", arguments: [Scene.episode(1).description])
        }
        #expect(KeptStates.episode(Scene.episode(1), from: [UInt8](try #require(row))) == studio.domain.episodes[Scene.episode(1)])
    }

    @Test("the schema version is the kept states' format: a new format replays the rows")
    func schemaFollowsTheFormat() {
        #expect(KeptStates.format == "episodic-state-\(StatesProjector().schemaVersion)")
    }
}
