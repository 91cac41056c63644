import CoreValues
import Episodic
import EventCodec
import EventLog
import Foundation
import PodcastDomain
import Testing

/// A podcast's stream grows with every change to it; a command on it reads only the events after the
/// fold the last long load kept, while the log vouches for that fold.
@Suite("Folds kept of long streams, through the facade")
struct KeptFoldTests {
    /// A podcast described 70 times, and the stream that holds it: longer than a load folds without keeping.
    func longPodcast() throws -> (studio: FacadeLibrary, id: PodcastID, stream: StreamID) {
        let studio = try FacadeLibrary()
        let id = try studio.createPodcast("Long Stream")
        for take in 1...70 { try studio.must(Submission(.podcast(.id(id), .describe("Take \(take)")))) }
        return (studio, id, StreamID(domain: id.streamName))
    }

    func kept(_ studio: FacadeLibrary, _ stream: StreamID) throws -> StreamSnapshot? {
        try EventLog(at: studio.library.path).snapshots.snapshot(of: stream, format: KeptStates.format)
    }

    /// `kept` with the podcast named `name`, which no event after it changes: a fold only this test makes.
    func forged(_ kept: StreamSnapshot, _ id: PodcastID, name: String) throws -> StreamSnapshot {
        var state = LibraryState()
        #expect(KeptStates.load(kept.state, as: .podcast(id), into: &state))
        var podcast = try #require(state.podcast(id).live)
        podcast.name = name
        state.load(id, from: .active(podcast))
        return StreamSnapshot(point: kept.point, format: kept.format, state: try #require(KeptStates.encode(.podcast(id), of: state)))
    }

    /// Renames the podcast: whether that changed anything, as the command decided.
    func rename(_ studio: FacadeLibrary, _ id: PodcastID, _ name: String) throws -> Bool {
        try studio.must(Submission(.podcast(.id(id), .rename(name))))[0].positions != nil
    }

    @Test("a command that folds a long stream keeps the fold, and the next command goes on from it")
    func keptAndUsed() throws {
        // Given a podcast with a long stream, which one command has loaded
        let (studio, id, stream) = try longPodcast()
        try studio.createEpisode(in: id, "One")

        // Then the fold was kept each time a load had folded 16 events, last at version 64 (the 63rd
        // description's), as the stream stood then: the load of the episode's creation folded 7 more
        let kept = try #require(try kept(studio, stream))
        #expect(kept.point.version == 64)
        var state = LibraryState()
        #expect(KeptStates.load(kept.state, as: .podcast(id), into: &state))
        #expect(state.podcast(id).live?.description == "Take 63")
        #expect(state.podcast(id).live?.name == "Long Stream")

        // When the kept fold says another name (as only a forged fold could)
        try EventLog(at: studio.library.path).snapshots.keep(try forged(kept, id, name: "Kept"), of: stream)

        // Then the next command decides on it, with the events after it: renaming the podcast so changes
        // nothing, and its description is the last one given
        #expect(try rename(studio, id, "Kept") == false)
        #expect(try studio.must(Submission(.podcast(.id(id), .describe("Take 70"))))[0].positions == nil)
    }

    @Test("a deleted podcast's kept fold is forgotten; restored by undo, it is folded from its stream again")
    func forgottenOnDelete() throws {
        // Given a podcast whose long stream has a kept fold
        let (studio, id, stream) = try longPodcast()
        try studio.createEpisode(in: id, "One")
        #expect(try kept(studio, stream) != nil)

        // When it is deleted
        let deleted = try studio.must(Submission(.podcast(.id(id), .delete)))[0]

        // Then its fold is no longer kept
        #expect(try kept(studio, stream) == nil)

        // And the undo that restores it folds its stream whole (keeping that fold again: deleted, as the
        // stream stood), and the podcast stands as it did, to be renamed
        try studio.undo(deleted.commandID)
        let again = try #require(try kept(studio, stream))
        var state = LibraryState()
        #expect(KeptStates.load(again.state, as: .podcast(id), into: &state))
        #expect(state.podcast(id).existing?.description == "Take 70")
        #expect(try rename(studio, id, "Long Stream Again"))
    }

    @Test("a fold is kept once a load has folded 16 events, and not before")
    func keptEvery16() throws {
        let studio = try FacadeLibrary()
        let id = try studio.createPodcast("Short Stream")
        let stream = StreamID(domain: id.streamName)
        // The 14th description's load folds 14 events (the creation and 13 descriptions): none kept.
        for take in 1...14 { try studio.must(Submission(.podcast(.id(id), .describe("Take \(take)")))) }
        #expect(try kept(studio, stream) == nil)
        // The 16th's load folds 16.
        for take in 15...16 { try studio.must(Submission(.podcast(.id(id), .describe("Take \(take)")))) }
        #expect(try kept(studio, stream)?.point.version == 16)
    }

    @Test("a kept fold goes on with the events after it, and is kept again once it is behind by as many")
    func keptAgain() throws {
        let (studio, id, stream) = try longPodcast()
        try studio.createEpisode(in: id, "One")
        // Each command below starts from the fold, and folds the events after it.
        for take in 71...140 { try studio.must(Submission(.podcast(.id(id), .describe("Take \(take)")))) }
        let kept = try #require(try kept(studio, stream))
        #expect(kept.point.version > 71)
        var state = LibraryState()
        #expect(KeptStates.load(kept.state, as: .podcast(id), into: &state))
        let folded = try studio.states().podcasts[id]
        #expect(state.podcast(id).live?.description.map { $0.hasPrefix("Take ") } == true)
        #expect(folded?.live?.description == "Take 140")
        #expect(try studio.must(Submission(.podcast(.id(id), .describe("Take 140"))))[0].positions == nil)
    }

    @Test("a kept fold the log does not vouch for is passed over, and the stream read whole", arguments: ["identity", "version", "format"])
    func passedOver(what: String) throws {
        let (studio, id, stream) = try longPodcast()
        try studio.createEpisode(in: id, "One")
        let kept = try #require(try kept(studio, stream))
        let log = try EventLog(at: studio.library.path)
        var forgery = try forged(kept, id, name: "Kept")
        switch what {
        case "identity":
            // A fold made on another copy of the log: another event at the same position.
            forgery.point.identity = try #require(try log.identity(at: LogPosition(kept.point.position.rawValue - 1)))
        case "version":
            forgery.point.version -= 1
        default:
            forgery.format = "episodic-state-0"
        }
        log.snapshots.keep(forgery, of: stream)

        // The podcast is named as the log says: renaming it changes its name, once.
        #expect(try rename(studio, id, "Kept") == true)
        #expect(try rename(studio, id, "Kept") == false)
    }

    @Test("verify folds each kept stream again from the log, and removes a kept fold that is not the log's")
    func verifyChecksKeptFolds() throws {
        let (studio, id, stream) = try longPodcast()
        try studio.createEpisode(in: id, "One")
        let clean = try studio.library.verify()
        #expect(clean.isClean && clean.keptFoldProblems.isEmpty, "\(clean)")

        let kept = try #require(try kept(studio, stream))
        try EventLog(at: studio.library.path).snapshots.keep(try forged(kept, id, name: "Kept"), of: stream)
        let report = try studio.library.verify()
        #expect(!report.isClean)
        #expect(report.keptFoldProblems.count == 1)
        #expect(report.keptFoldProblems.first?.contains(stream.rawValue) == true, "\(report.keptFoldProblems)")
        #expect(try self.kept(studio, stream) == nil)

        // The next command folds the stream whole: the podcast is named as the log says.
        #expect(try rename(studio, id, "Kept") == true)
        #expect(try studio.library.verify().isClean)
    }

    @Test("the read models' catch-up starts a long stream's fold from the kept fold too")
    func projectionUsesKeptFold() throws {
        // Given a kept fold of a podcast's long stream that names it "Kept" (a forgery: the log says
        // "Long Stream")
        let (studio, id, stream) = try longPodcast()
        try studio.createEpisode(in: id, "One")
        let kept = try #require(try kept(studio, stream))
        try EventLog(at: studio.library.path).snapshots.keep(try forged(kept, id, name: "Kept"), of: stream)

        // When a command changes the podcast, and its row is projected
        try studio.must(Submission(.podcast(.id(id), .describe("Fresh"))))

        // Then the row was folded from the kept fold on: only a forgery shows it, and verify finds both
        let row = try #require(try studio.library.podcasts().first { $0.id == id })
        #expect(row.name == "Kept")
        #expect(row.description == "Fresh")
        let report = try studio.library.verify()
        #expect(report.keptFoldProblems.count == 1)
        #expect(!report.readModel.isEmpty)
    }
}
