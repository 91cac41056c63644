import CoreValues
import Episodic
import EventLog
import Foundation
import PodcastDomain
import Testing

/// For every event type: do, undo, redo, on a real library. Undo must give back the state before, in
/// the domain (the log folded) and in every projection; redo the state after.
@Suite("Undo and redo of every event type")
struct UndoRedoTests {
    /// The library each scenario starts from: a podcast with two episodes, the first with a transcript
    /// converted to subtitles.
    struct Base {
        let podcast: PodcastID
        let first: EpisodeID
        let second: EpisodeID

        init(_ studio: FacadeLibrary) throws {
            podcast = try studio.createPodcast("Show")
            first = try studio.createEpisode(in: podcast, "One")
            second = try studio.createEpisode(in: podcast, "Two")
            try studio.must(.importTranscript(FacadeLibrary.transcript("hello"), into: .id(first)))
            try studio.must(Submission(.convertTranscript(.id(first))))
        }
    }

    /// A command under test, what must be true first, and the event type it must append first.
    struct Scenario: CustomStringConvertible, Sendable {
        var event: String
        var setup: @Sendable (FacadeLibrary, Base) throws -> Void = { _, _ in }
        var command: @Sendable (FacadeLibrary, Base) throws -> Submission

        var description: String { event }
    }

    static let scenarios: [Scenario] = [
        Scenario(event: "PodcastCreated") { studio, _ in
            let id = PodcastID(UUID())
            return Submission(.podcast(.id(id), .create(id: id, name: "New", at: studio.tick())))
        },
        Scenario(event: "PodcastRenamed") { _, base in Submission(.podcast(.id(base.podcast), .rename("Renamed"))) },
        Scenario(event: "PodcastDescribed") { _, base in Submission(.podcast(.id(base.podcast), .describe("About"))) },
        Scenario(event: "PodcastArtworkSet") { _, base in try .setArtwork(FacadeLibrary.image, of: .id(base.podcast)) },
        Scenario(event: "PodcastArtworkCleared", setup: { studio, base in try studio.must(try .setArtwork(FacadeLibrary.image, of: .id(base.podcast))) }) { _, base in
            Submission(.podcast(.id(base.podcast), .clearArtwork))
        },
        Scenario(event: "PodcastDefaultOverlaySet") { _, base in try .setDefaultOverlay(FacadeLibrary.image, of: .id(base.podcast)) },
        Scenario(event: "PodcastDefaultOverlayCleared", setup: { studio, base in try studio.must(try .setDefaultOverlay(FacadeLibrary.image, of: .id(base.podcast))) }) { _, base in
            Submission(.podcast(.id(base.podcast), .clearDefaultOverlay))
        },
        Scenario(event: "PodcastThumbnailDefaultsChanged") { _, base in
            var patch = ThumbnailSettingsPatch()
            patch.fontSize = 100
            return Submission(.patchThumbnailDefaults(.id(base.podcast), patch))
        },
        Scenario(event: "PodcastDeleted") { _, base in Submission(.podcast(.id(base.podcast), .delete)) },
        Scenario(event: "EpisodeCreated") { studio, base in
            let id = EpisodeID(UUID())
            return Submission(.createEpisode(in: .id(base.podcast), .create(id: id, title: "Three", at: studio.tick())))
        },
        Scenario(event: "EpisodeRetitled") { _, base in Submission(.episode(.id(base.first), .retitle("Uno"))) },
        Scenario(event: "EpisodeRenumbered") { _, base in Submission(.episode(.id(base.first), .renumber(7))) },
        Scenario(event: "EpisodeDescribed") { _, base in Submission(.episode(.id(base.first), .describe("About one"))) },
        Scenario(event: "EpisodePublishDateChanged") { _, base in
            Submission(.episode(.id(base.first), .setPublishDate(Timestamp(rawValue: 1_800_000_000_000))))
        },
        Scenario(event: "EpisodeDeleted") { _, base in Submission(.episode(.id(base.second), .delete)) },
        Scenario(event: "TranscriptImported") { _, base in .importTranscript(FacadeLibrary.transcript("second"), into: .id(base.second)) },
        Scenario(event: "TranscriptReplaced") { _, base in .importTranscript(FacadeLibrary.transcript("again"), into: .id(base.first)) },
        Scenario(event: "TranscriptCleared") { _, base in Submission(.episode(.id(base.first), .clearTranscript)) },
        Scenario(event: "SRTGenerated", setup: { studio, base in try studio.must(.importTranscript(FacadeLibrary.transcript("two"), into: .id(base.second))) }) { _, base in
            Submission(.convertTranscript(.id(base.second)))
        },
        Scenario(event: "ThumbnailBackgroundSet") { _, base in try .setBackground(FacadeLibrary.image, of: .id(base.first)) },
        Scenario(event: "ThumbnailOverlaySet") { _, base in try .setOverlay(FacadeLibrary.image, of: .id(base.first)) },
        Scenario(event: "ThumbnailOverlayCleared", setup: { studio, base in try studio.must(try .setOverlay(FacadeLibrary.image, of: .id(base.first))) }) { _, base in
            Submission(.episode(.id(base.first), .clearOverlay))
        },
        Scenario(event: "ThumbnailSettingsChanged") { _, base in
            var patch = ThumbnailSettingsPatch()
            patch.outlineEnabled = false
            return Submission(.patchThumbnailSettings(.id(base.first), patch))
        },
        Scenario(event: "ThumbnailTextChanged") { _, base in Submission(.episode(.id(base.first), .changeThumbnailText(.custom("Pilot!")))) },
        Scenario(
            event: "ThumbnailRendered",
            setup: { studio, base in
                try studio.must(try .setBackground(FacadeLibrary.image, of: .id(base.first)), try .setOverlay(FacadeLibrary.image, of: .id(base.first)))
            }
        ) { studio, base in
            // A stored render, recorded as the renderer records one: the format its bytes are in (PNG).
            let inputs = try #require(try studio.library.liveEpisode(base.first).thumbnailInputs)
            let thumbnail = RenderedThumbnail(image: try Submission.image(FacadeLibrary.image), format: .png, inputs: inputs)
            return Submission(.episode(.id(base.first), .recordThumbnail(thumbnail)), blobs: [FacadeLibrary.image])
        },
    ]

    @Test("do, undo, redo", arguments: scenarios)
    func doUndoRedo(_ scenario: Scenario) throws {
        // Given
        let studio = try FacadeLibrary()
        let base = try Base(studio)
        try scenario.setup(studio, base)
        let before = try Snapshot(studio)

        // When it is done
        let done = try #require(try studio.must(try scenario.command(studio, base)).first)
        #expect(done.events.first?.type == scenario.event)
        let after = try Snapshot(studio)
        #expect(after != before, "the command changed something")

        // then undone, the library is as it was before,
        let undo = try studio.undo(done.commandID)
        #expect(!undo.events.isEmpty)
        #expect(try Snapshot(studio) == before)

        // and undoing the undo does it again.
        try studio.undo(undo.commandID)
        #expect(try Snapshot(studio) == after)
    }

    /// What must come back: the live entities folded from the log, and every read-model row.
    struct Snapshot: Equatable {
        var podcasts: [PodcastID: Podcast]
        var episodes: [EpisodeID: Episode]
        var rows: [String: [String]]

        init(_ studio: FacadeLibrary) throws {
            let (podcasts, episodes) = try studio.states()
            self.podcasts = podcasts.compactMapValues(\.live)
            self.episodes = episodes.compactMapValues(\.live)
            // An undone creation is a deletion: the deleted entities' table remembers its id, so that a
            // prefix still finds it, and the states tables keep its fold. Everything else is as it was.
            rows = try studio.readModelRows().filter { !["sidebar_deleted", "podcast_states", "episode_states"].contains($0.key) }
        }
    }
}
