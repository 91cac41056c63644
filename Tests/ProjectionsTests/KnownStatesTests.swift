import CoreValues
import DomainTestSupport
import EventLog
import PodcastDomain
import Testing

@testable import Projections

/// The write path hands the projection the states it decided on, as of the position the read models
/// stand at, so that the projection does not read those streams again; at any other position they
/// are not the fold's start, and are passed over.
@Suite("States known to the caller")
struct KnownStatesTests {
    /// A library with one episode, "Pilot", its read model caught up; and that episode's state as of
    /// the head with a description no event gave it: a forgery that shows whether a fold started from it.
    func pilot() throws -> (studio: ShellWrittenLibrary, readModel: ReadModel, forged: EpisodeState) {
        let studio = try ShellWrittenLibrary()
        let readModel = try studio.openReadModel()
        try studio.must(Scene.createShow())
        try studio.must(Scene.createEpisode(1, "Pilot"))
        try studio.log.write { _ in try readModel.catchUp(with: studio.log) }
        var episode = try #require(studio.domain.episodes[Scene.episode(1)]?.live)
        episode.description = "Known"
        return (studio, readModel, .active(episode))
    }

    @Test("a catch-up from the position the known states stand at starts each entity's fold from them")
    func usedAtTheirPosition() throws {
        // Given states known as of the read model's position
        let (studio, readModel, forged) = try pilot()
        var known = KnownStates(at: studio.log.head)
        known.keepFirst(forged, of: Scene.episode(1))

        // When the episode is retitled, and the read model caught up with them
        try studio.must(Scene.on(1, .retitle("Pilot, take two")))
        try studio.log.write { _ in try readModel.catchUp(with: studio.log, known: known) }

        // Then its row is the retitle folded over the known state
        let detail = try #require(try readModel.episode(Scene.episode(1)))
        #expect(detail.title == "Pilot, take two")
        #expect(detail.description == "Known")
    }

    @Test("known states that stand anywhere else are passed over: the fold reads the stream")
    func passedOverElsewhere() throws {
        // Given states known as of a position the read model does not stand at
        let (studio, readModel, forged) = try pilot()
        var known = KnownStates(at: LogPosition(studio.log.head.rawValue - 1))
        known.keepFirst(forged, of: Scene.episode(1))

        // When the episode is retitled, and the read model caught up with them
        try studio.must(Scene.on(1, .retitle("Pilot, take two")))
        try studio.log.write { _ in try readModel.catchUp(with: studio.log, known: known) }

        // Then its row is the log's alone
        let detail = try #require(try readModel.episode(Scene.episode(1)))
        #expect(detail.title == "Pilot, take two")
        #expect(detail.description == nil)
    }

    @Test("the first state kept of an entity stays: later ones have the caller's own changes in them")
    func firstStateStays() throws {
        let (_, _, forged) = try pilot()
        var known = KnownStates(at: LogPosition(1))
        known.keepFirst(forged, of: Scene.episode(1))
        known.keepFirst(.initial, of: Scene.episode(1))
        #expect(known.episodes[Scene.episode(1)] == forged)
    }
}
