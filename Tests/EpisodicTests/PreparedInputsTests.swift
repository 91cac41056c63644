import CoreValues
import EventLog
import Foundation
import PodcastDomain
import Testing

@testable import Episodic

/// The slow work on a batch's inputs (transcript checks, conversions, renders) is made before the
/// writer lock is taken; what a batch changes under it is made after the lock is let go, and the
/// command decided on what the batch left. (`WorkOutsideLockCLITests` watches the real command's lock.)
@Suite("Work on inputs, made outside the writer lock")
struct PreparedInputsTests {
    /// A transcript the rules read past twice (a header, a time out of order), and refuse when strict.
    static let defective = Array("Show notes\n00:00:10\nHost\nHello.\n\n00:00:05\nGuest\nEarlier?\n".utf8)

    @Test("a batch's imports are checked, its conversions made for the transcript an earlier import brings or the episode has, its renders for the inputs there are")
    func foreseen() throws {
        // Given an episode with a transcript and a background, and a batch that converts it, imports
        // another, converts again strictly, and renders
        let studio = try FacadeLibrary()
        let id = try studio.createEpisode(in: try studio.createPodcast("Show"), "Pilot")
        let first = FacadeLibrary.transcript("Hello")
        try studio.must(.importTranscript(first, into: .id(id)), try .setBackground(FacadeLibrary.image, of: .id(id)))
        let second = FacadeLibrary.transcript("Goodbye")
        let batch: [Submission] = [
            Submission(.convertTranscript(.id(id))), .importTranscript(second, into: .id(id)),
            Submission(.convertTranscript(.id(id), strict: true)), Submission(.renderThumbnail(.text("Show/1"))),
        ]

        // When the batch's work is prepared
        let prepared = PreparedInputs(batch, library: studio.library)

        // Then the import is checked, both conversions are made and the thumbnail is drawn; other work is not
        let check = try prepared.check(second, BlobStore.reference(for: second), strict: false)
        #expect(check == TranscriptCheck(second, BlobStore.reference(for: second), strict: false))
        let converted = try prepared.conversion(BlobStore.reference(for: first), strict: false).get()
        #expect(converted.subtitles.transcript == BlobStore.reference(for: first) && converted.subtitles.cueCount == 2)
        #expect(throws: Never.self) { try prepared.conversion(BlobStore.reference(for: second), strict: true) }
        #expect(throws: InputWorkNeeded.self) { try prepared.conversion(BlobStore.reference(for: second), strict: false) }
        #expect(throws: InputWorkNeeded.self) { try prepared.check(first, BlobStore.reference(for: first), strict: false) }
        let inputs = try #require(try studio.library.liveEpisode(id).thumbnailInputs)
        let (thumbnail, bytes) = try prepared.render(inputs, fonts: FontLibraryState())
        #expect(thumbnail.image.blob == BlobStore.reference(for: bytes) && thumbnail.inputs == inputs)
        var other = inputs
        other.text = "Another"
        #expect(throws: InputWorkNeeded.self) { try prepared.render(other, fonts: FontLibraryState()) }
    }

    @Test("a conversion and a render of inputs the batch changes unforeseen are made after the lock, on what the batch left", arguments: [false, true])
    func unforeseen(atomic: Bool) throws {
        // Given an episode, and a batch that retitles it, gives it a transcript and a background by its
        // id, then converts and renders it named otherwise (so that neither input is foreseen)
        let studio = try FacadeLibrary()
        let id = try studio.createEpisode(in: try studio.createPodcast("Show"), "Pilot")
        let transcript = FacadeLibrary.transcript("Hello")
        let batch: [Submission] = [
            Submission(.episode(.id(id), .retitle("First"))),
            .importTranscript(transcript, into: .id(id)), try .setBackground(FacadeLibrary.image, of: .id(id)),
            Submission(.convertTranscript(.text("Show/1"))), Submission(.renderThumbnail(.text("Show/1"))),
        ]

        // When it is submitted
        let report = try studio.library.submit(batch, actor: "tester", atomic: atomic, clock: studio.tick)

        // Then every command is done once, the subtitles made from the transcript and the thumbnail from the background
        #expect(try report.results.map { try $0.get().name }
            == ["episode.retitle", "transcript.import", "thumbnail.background", "transcript.convert", "thumbnail.render"])
        let episode = try studio.library.liveEpisode(id)
        #expect(episode.title == "First")
        #expect(episode.subtitles?.transcript == BlobStore.reference(for: transcript))
        #expect(episode.thumbnail?.inputs == episode.thumbnailInputs && !episode.thumbnailOutdated && !episode.subtitlesOutdated)
        let events = try EventLog(at: studio.folder + "/library").events()
        #expect(events.map(\.type).suffix(5) == ["EpisodeRetitled", "TranscriptImported", "ThumbnailBackgroundSet", "SRTGenerated", "ThumbnailRendered"])
        #expect(events.count == 7)
        // An atomic batch is one commit; otherwise each command is its own
        #expect(Set(events.suffix(5).map(\.commandID)).count == (atomic ? 1 : 5))
    }

    @Test("a render whose inputs other writers change each time it is made after the lock is refused as busy, the commands before it done")
    func inputKeptChanging() throws {
        // Given an episode with a background, and another writer on the same library
        let studio = try FacadeLibrary()
        let id = try studio.createEpisode(in: try studio.createPodcast("Show"), "Pilot")
        try studio.must(try .setBackground(FacadeLibrary.image, of: .id(id)))
        let other = try Library(at: studio.folder + "/library")
        var changes = 0

        // When a batch changes the thumbnail's text and renders it, and the other writer changes the
        // text each time the batch lets the lock go
        let batch: [Submission] = [
            Submission(.episode(.id(id), .changeThumbnailText(.custom("Ours")))), Submission(.renderThumbnail(.text("Show/1"))),
        ]
        let report = try studio.library.submit(batch, actor: "tester", clock: studio.tick, acknowledged: { _ in
            changes += 1
            _ = try? other.submit([Submission(.episode(.id(id), .changeThumbnailText(.custom("Theirs \(changes)"))))], actor: "other")
        })

        // Then the text is changed, and the render refused as busy after being made three times, nothing of it written
        #expect(report.results.count == 2)
        #expect(try report.results[0].get().name == "thumbnail.text")
        let failure = try #require(report.results[1].failure)
        #expect(failure.error as? LibraryError == .inputKeptChanging("thumbnail.render") && failure.kind == .busy)
        // (The other writer changed the text after the first group, after each of the three sections
        // that found the render missing, and once the batch was over.)
        #expect(changes == 2 + Library.inputWorkAttempts)
        let episode = try Library(at: studio.folder + "/library").liveEpisode(id)
        #expect(episode.thumbnail == nil && episode.thumbnailText == .custom("Theirs \(changes)"))
    }

    @Test("a batch of imports decides as each command's own check would: warnings kept, a strict defect refused")
    func decisionsAsChecked() throws {
        // Given an episode, and a batch importing a defective transcript leniently, then strictly, then a clean one
        let studio = try FacadeLibrary()
        let id = try studio.createEpisode(in: try studio.createPodcast("Show"), "Pilot")
        let episode = EpisodeReference.id(id)
        let clean = FacadeLibrary.transcript("Hello")
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

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
