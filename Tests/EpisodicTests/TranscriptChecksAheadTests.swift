import CoreValues
import EventLog
import Foundation
import PodcastDomain
import Testing

@testable import Episodic

/// A batch's transcript imports are checked on a thread of their own while the commands before them
/// are decided; the decisions are those of checks made in turn.
@Suite("Transcripts checked ahead")
struct TranscriptChecksAheadTests {
    /// A transcript the rules read past twice (a header, a time out of order), and refuse when strict.
    static let defective = Array("Show notes\n00:00:10\nHost\nHello.\n\n00:00:05\nGuest\nEarlier?\n".utf8)

    /// A batch of a retitle and two imports, the second strict.
    static func batch() -> (submissions: [Submission], clean: [UInt8]) {
        let episode = EpisodeReference.id(EpisodeID(UUID()))
        let clean = Studio.transcript("Hello")
        return ([
            Submission(.episode(episode, .retitle("One"))),
            .importTranscript(defective, into: episode),
            .importTranscript(clean, into: episode, strict: true),
        ], clean)
    }

    @Test("each import's check is made as the decider would make it, and taken once")
    func madeAndTakenOnce() throws {
        // Given the checks of a batch, made (here on this thread, at once)
        let (batch, clean) = Self.batch()
        let checks = try #require(TranscriptChecksAhead(batch, start: { $0() }))

        // When the writer comes to each command
        let taken = (0..<3).map { checks.take($0) }

        // Then each import's check is there, as the decider makes it, and only once
        #expect(taken[0] == nil)
        #expect(taken[1] == TranscriptCheck(Self.defective, BlobStore.reference(for: Self.defective), strict: false))
        #expect(taken[2] == TranscriptCheck(clean, BlobStore.reference(for: clean), strict: true))
        #expect(checks.take(2) == nil)
    }

    @Test("the checks of commands the writer has passed are not made")
    func passedNotMade() throws {
        // Given the checks of a batch, whose thread has not started yet
        let (batch, _) = Self.batch()
        nonisolated(unsafe) var work: (@Sendable () -> Void)?
        let checks = try #require(TranscriptChecksAhead(batch, start: { work = $0 }))

        // When the writer comes to the last command first, and the thread runs after that
        #expect(checks.take(2) == nil)
        let run = try #require(work)
        run()

        // Then neither import was checked ahead
        #expect(checks.take(1) == nil)
        #expect(checks.take(2) == nil)
    }

    @Test("nothing is checked ahead for a batch without imports, or of one command")
    func nothingToCheckAhead() {
        let episode = EpisodeReference.id(EpisodeID(UUID()))
        #expect(TranscriptChecksAhead([Submission(.episode(episode, .retitle("One"))), Submission(.episode(episode, .retitle("Two")))]) == nil)
        #expect(TranscriptChecksAhead([.importTranscript(Self.defective, into: episode)]) == nil)
    }

    @Test("a batch of imports decides as each command's own check would: warnings kept, a strict defect refused")
    func decisionsAsChecked() throws {
        // Given an episode, and a batch importing a defective transcript leniently, then strictly, then a clean one
        let studio = try Studio()
        let id = try studio.createEpisode(in: try studio.createPodcast("Show"), "Pilot")
        let episode = EpisodeReference.id(id)
        let clean = Studio.transcript("Hello")
        let batch: [Submission] = [
            .importTranscript(Self.defective, into: episode),
            .importTranscript(Self.defective, into: episode, strict: true),
            .importTranscript(clean, into: episode),
        ]

        // When it is submitted going on past refusals
        let report = try studio.library.submit(batch, actor: "tester", keepGoing: true, clock: studio.tick)

        // Then the lenient import kept its warnings, the strict one was refused, and the clean one replaced it
        let outcomes = report.results.map { try? $0.get() }
        #expect(outcomes[0]?.warnings.map(\.kind) == [.header, .timeOutOfOrder])
        #expect(outcomes[1] == nil)
        #expect(outcomes[2]?.warnings == [])
        #expect(try studio.library.currentReadModel().episode(id)?.transcript == BlobStore.reference(for: clean))
    }
}
