import CoreValues
@testable import Episodic
import EventLog
import Foundation
import PodcastDomain
import Projections
import Testing

@Suite("Undo: conflicts, cascades, rules, --last")
struct UndoRuleTests {
    @Test("a later change to the same field makes undo refuse and name it; other fields do not")
    func conflicts() throws {
        let studio = try FacadeLibrary()
        let podcast = try studio.createPodcast("Show")
        let episode = try studio.createEpisode(in: podcast, "One")
        let first = try studio.must(Submission(.episode(.id(episode), .retitle("Uno"))))[0]
        try studio.must(.importTranscript(FacadeLibrary.transcript("hi"), into: .id(episode)))
        // A transcript changed since: the retitle can still be undone alone...
        let head = studio.library.log.head
        let undo = try studio.library.undo(.command(first.commandID), actor: "t", dryRun: true)
        #expect(undo.plan.events.map(\.type) == ["EpisodeRetitled"])
        #expect(undo.outcome == nil && studio.library.log.head == head, "a dry run appends nothing")

        // ...but not once the title changed again.
        let second = try studio.must(Submission(.episode(.id(episode), .retitle("Eins"))))[0]
        #expect {
            try studio.undo(first.commandID)
        } throws: { error in
            guard case UndoError.conflicts(_, let conflicts) = error else { return false }
            return conflicts.map(\.commandID) == [second.commandID] && conflicts.first?.fields == [.title]
                && "\(error)".contains("undo with force")
        }
        #expect(studio.library.log.head == second.positions!.upperBound, "nothing appended")
        #expect(throws: UndoError.self) { try studio.undo(first.commandID, force: true) }  // nothing left
    }

    @Test("--force undoes what is still in effect and says what it left")
    func force() throws {
        let studio = try FacadeLibrary()
        let podcast = try studio.createPodcast("Show")
        let one = try studio.createEpisode(in: podcast, "One")
        let two = try studio.createEpisode(in: podcast, "Two")
        let both = try studio.must(
            Submission(.episode(.id(one), .retitle("Uno"))), Submission(.episode(.id(two), .retitle("Dos"))), atomic: true)[0]
        try studio.must(Submission(.episode(.id(two), .retitle("Deux"))))

        let (plan, outcome, _) = try studio.library.undo(.command(both.commandID), actor: "t", force: true)
        #expect(plan.skipped.map(\.fields) == [[.title]])
        #expect(plan.skipped.first?.stream == two.streamName)
        #expect(outcome?.events.map(\.type) == ["EpisodeRetitled"])
        #expect(try studio.library.liveEpisode(one).title == "One")
        #expect(try studio.library.liveEpisode(two).title == "Deux")
    }

    @Test("undoing a podcast's deletion brings back the podcast and its episodes, with their content")
    func cascade() throws {
        let studio = try FacadeLibrary()
        let podcast = try studio.createPodcast("Show")
        let one = try studio.createEpisode(in: podcast, "One")
        let two = try studio.createEpisode(in: podcast, "Two")
        try studio.must(.importTranscript(FacadeLibrary.transcript("kept"), into: .id(one)))
        try studio.must(Submission(.convertTranscript(.id(one))))
        let before = try studio.library.liveEpisode(one)
        let deleted = try studio.must(Submission(.podcast(.id(podcast), .delete)))[0]
        #expect(try studio.library.currentReadModel().podcasts().isEmpty)

        let undo = try studio.undo(deleted.commandID)
        #expect(Set(undo.events.map(\.type)) == ["PodcastRestored", "EpisodeRestored"])
        #expect(try studio.library.liveEpisode(one) == before)
        #expect(try studio.library.liveEpisode(two).title == "Two")
        let model = try studio.library.currentReadModel()
        #expect(try model.podcasts().map(\.episodeCount) == [2])
        #expect(try model.episodes(EpisodeQuery(podcast: podcast)).map(\.hasSRT) == [false, true])
        #expect(try model.search("kept").map(\.episodeID) == [one])
    }

    @Test("an undo that would break a rule appends nothing and says which rule")
    func rules() throws {
        let studio = try FacadeLibrary()
        let podcast = try studio.createPodcast("Show")
        let one = try studio.createEpisode(in: podcast, "One")
        let deleted = try studio.must(Submission(.episode(.id(one), .delete)))[0]
        try studio.createEpisode(in: podcast, "Another one")  // takes number 1 again
        let head = studio.library.log.head
        #expect {
            try studio.undo(deleted.commandID)
        } throws: { error in
            "\(error)".contains("number 1 is now taken")
        }
        #expect(studio.library.log.head == head)

        let renamed = try studio.must(Submission(.podcast(.id(podcast), .rename("Old name"))))[0]
        try studio.must(Submission(.podcast(.id(podcast), .rename("New name"))))
        let other = try studio.createPodcast("Show")
        _ = other
        // Undoing the first rename would overwrite the second: a conflict, before any rule.
        #expect(throws: UndoError.self) { try studio.undo(renamed.commandID) }
    }

    @Test("--last takes the newest command still in effect, by an actor if asked")
    func last() throws {
        let studio = try FacadeLibrary()
        let podcast = try studio.createPodcast("Show")
        let a = try studio.library.submit(
            [Submission(.podcast(.id(podcast), .describe("by ann")))], actor: "ann", clock: studio.tick).results[0].get()
        let b = try studio.library.submit(
            [Submission(.podcast(.id(podcast), .rename("by bob")))], actor: "bob", clock: studio.tick).results[0].get()

        let first = try studio.library.undo(.last(actor: nil), actor: "bob", clock: studio.tick)
        #expect(first.plan.target == b.commandID)
        // The undo and the command it undid are out of the way: the next --last goes further back.
        let second = try studio.library.undo(.last(actor: nil), actor: "bob", clock: studio.tick)
        #expect(second.plan.target == a.commandID)
        #expect(try studio.library.podcastState(podcast).live?.description == nil)
        #expect(throws: UndoError.self) { try studio.library.undo(.last(actor: "carol"), actor: "bob") }
        #expect(throws: UndoError.self, "ann's only command is undone") { try studio.library.undo(.last(actor: "ann"), actor: "bob") }
        // tester's newest is the creation. What ann and bob did is undone, so the podcast is as the
        // creation left it: undoing it overwrites nothing.
        let creation = try EventLog(at: studio.library.path).events().first!.commandID
        #expect(try studio.library.undo(.last(actor: "tester"), actor: "bob", dryRun: true).plan.target == creation)
        // A change that stands since is in the way.
        _ = try studio.library.submit([Submission(.podcast(.id(podcast), .describe("by carol")))], actor: "carol", clock: studio.tick)
        #expect {
            try studio.library.undo(.last(actor: "tester"), actor: "bob", dryRun: true)
        } throws: { error in
            guard case UndoError.conflicts(let target, let conflicts) = error else { return false }
            return target == creation && conflicts.first?.fields == [.existence]
        }
    }

    @Test("commands are found newest first and whole, though the log is read from the head a stretch at a time")
    func newestFirst() throws {
        let studio = try FacadeLibrary()
        let podcast = try studio.createPodcast("Show")
        var expected = [CommandSpan]()
        // Commits of 1 to 7 events: shorter and longer than the stretches below.
        for (index, size) in [3, 1, 7, 2, 5, 1, 4].enumerated() {
            let actor = "actor-\(index % 2)"
            let submissions = (0..<size).map { Submission(.podcast(.id(podcast), .describe("commit \(index), edit \($0)"))) }
            // An atomic batch is one commit, under one command id.
            let outcomes = try studio.library.submit(submissions, actor: actor, atomic: true, clock: studio.tick).results.map { try $0.get() }
            let first = try #require(outcomes.first?.positions), last = try #require(outcomes.last?.positions)
            #expect(Set(outcomes.map(\.commandID)).count == 1)
            expected.append(CommandSpan(id: outcomes[0].commandID, actor: actor, undoes: nil, positions: first.lowerBound...last.upperBound))
        }
        let creation = try EventLog(at: studio.library.path).events().first!
        expected.insert(CommandSpan(id: creation.commandID, actor: "tester", undoes: nil, positions: creation.position...creation.position), at: 0)

        for stretch: UInt64 in 1...10 {
            var seen: [CommandSpan] = []
            #expect(try studio.library.newestFirst(stretch: stretch) { seen.append($0); return false } == nil)
            #expect(seen == expected.reversed(), "stretch \(stretch)")
            #expect(try studio.library.newestFirst(stretch: stretch) { $0.id == expected[3].id } == expected[3])
        }
    }

    @Test("undoing a command that does not exist says so")
    func unknownCommand() throws {
        let studio = try FacadeLibrary()
        try studio.createPodcast("Show")
        let unknown = CommandID(UUID())
        #expect {
            try studio.library.undo(.command(unknown), actor: "ann", dryRun: true)
        } throws: { error in
            guard case LibraryError.commandNotFound(let id) = error else { return false }
            return id == unknown.description
        }
    }

    @Test("undoing an undo is a redo, and the log says which command each undid")
    func redo() throws {
        let studio = try FacadeLibrary()
        let podcast = try studio.createPodcast("Show")
        let rename = try studio.must(Submission(.podcast(.id(podcast), .rename("Renamed"))))[0]
        let undo = try studio.undo(rename.commandID)
        #expect(try studio.library.podcastState(podcast).live?.name == "Show")
        let redo = try studio.undo(undo.commandID)
        #expect(try studio.library.podcastState(podcast).live?.name == "Renamed")
        let undoes = try EventLog(at: studio.library.path).events().compactMap(\.undoes)
        #expect(undoes == [rename.commandID, undo.commandID])
        _ = redo
    }
}
