import CoreValues
import Testing

@testable import PodcastDomain

@Suite("Inverses for undo")
struct InversesTests {
    static let p = Fixture.podcast
    static let e = Fixture.episode

    /// For every event type: a history, and the event that follows it.
    static let podcastCases: [(history: [DomainEvent], event: DomainEvent)] = {
        let art = Fixture.image("art"), overlay = Fixture.image("overlay"), background = Fixture.image("background")
        let dressed = [
            Fixture.created(),
            .podcastArtworkSet(PodcastArtworkSet(podcastID: p, artwork: art)),
            .podcastDefaultOverlaySet(PodcastDefaultOverlaySet(podcastID: p, overlay: overlay)),
            .podcastDefaultBackgroundSet(PodcastDefaultBackgroundSet(podcastID: p, background: background)),
            .podcastDefaultTextChanged(PodcastDefaultTextChanged(podcastID: p, text: .title)),
        ]
        return [
            ([], Fixture.created()),
            ([Fixture.created()], .podcastRenamed(PodcastRenamed(podcastID: p, name: "New"))),
            ([Fixture.created()], .podcastDescribed(PodcastDescribed(podcastID: p, description: "About"))),
            ([Fixture.created()], .podcastArtworkSet(PodcastArtworkSet(podcastID: p, artwork: art))),
            (dressed, .podcastArtworkSet(PodcastArtworkSet(podcastID: p, artwork: Fixture.image("art2")))),
            (dressed, .podcastArtworkCleared(PodcastArtworkCleared(podcastID: p))),
            ([Fixture.created()], .podcastDefaultOverlaySet(PodcastDefaultOverlaySet(podcastID: p, overlay: overlay))),
            (dressed, .podcastDefaultOverlayCleared(PodcastDefaultOverlayCleared(podcastID: p))),
            ([Fixture.created()], .podcastDefaultBackgroundSet(PodcastDefaultBackgroundSet(podcastID: p, background: background))),
            (dressed, .podcastDefaultBackgroundSet(PodcastDefaultBackgroundSet(podcastID: p, background: Fixture.image("background2")))),
            (dressed, .podcastDefaultBackgroundCleared(PodcastDefaultBackgroundCleared(podcastID: p))),
            ([Fixture.created()], .podcastThumbnailDefaultsChanged(PodcastThumbnailDefaultsChanged(podcastID: p, thumbnailDefaults: ThumbnailSettings(fontSize: 40)))),
            ([Fixture.created()], .podcastDefaultTextChanged(PodcastDefaultTextChanged(podcastID: p, text: .custom("LIVE")))),
            (dressed, .podcastDefaultTextChanged(PodcastDefaultTextChanged(podcastID: p, text: .episodeNumber))),
            (dressed, .podcastDeleted(PodcastDeleted(podcastID: p))),
            (dressed + [.podcastDeleted(PodcastDeleted(podcastID: p))], .podcastRestored(PodcastRestored(podcast: PodcastDecider.fold(dressed).live!))),
        ]
    }()

    static let episodeCases: [(history: [DomainEvent], event: DomainEvent)] = {
        let full: [DomainEvent] = Fixture.withTranscript + [
            .srtGenerated(SRTGenerated(episodeID: e, subtitles: SubtitlesRef(blob: Fixture.blob("srt"), cueCount: 3, transcript: Fixture.transcript))),
            .thumbnailBackgroundSet(ThumbnailBackgroundSet(episodeID: e, background: Fixture.image("bg"))),
            .thumbnailOverlaySet(ThumbnailOverlaySet(episodeID: e, overlay: Fixture.image("ov"))),
            .thumbnailTextChanged(ThumbnailTextChanged(episodeID: e, text: .custom("One"))),
        ]
        let rendered = full + [.thumbnailRendered(ThumbnailRendered(episodeID: e, thumbnail: Fixture.render(of: full, format: .png)))]
        let created = [Fixture.episodeCreated()]
        return [
            ([], Fixture.episodeCreated()),
            (created, .episodeRetitled(EpisodeRetitled(episodeID: e, title: "New"))),
            (created, .episodeRenumbered(EpisodeRenumbered(episodeID: e, number: 5))),
            (created, .episodeDescribed(EpisodeDescribed(episodeID: e, description: "About"))),
            (created, .episodePublishDateChanged(EpisodePublishDateChanged(episodeID: e, publishDate: Fixture.tuesday))),
            (rendered, .episodeDeleted(EpisodeDeleted(episodeID: e))),
            (rendered + [.episodeDeleted(EpisodeDeleted(episodeID: e))], .episodeRestored(EpisodeRestored(episode: EpisodeDecider.fold(rendered).live!))),
            (created, .transcriptImported(TranscriptImported(episodeID: e, transcript: Fixture.transcript, warnings: []))),
            (full, .transcriptReplaced(TranscriptReplaced(episodeID: e, transcript: Fixture.blob("newer"), warnings: []))),
            (full, .transcriptCleared(TranscriptCleared(episodeID: e))),
            (Fixture.withTranscript, .srtGenerated(SRTGenerated(episodeID: e, subtitles: SubtitlesRef(blob: Fixture.blob("srt"), cueCount: 3, transcript: Fixture.transcript)))),
            (full, .srtGenerated(SRTGenerated(episodeID: e, subtitles: SubtitlesRef(blob: Fixture.blob("srt2"), cueCount: 4, transcript: Fixture.transcript)))),
            (full, .srtDiscarded(SRTDiscarded(episodeID: e))),
            (created, .thumbnailBackgroundSet(ThumbnailBackgroundSet(episodeID: e, background: Fixture.image("bg")))),
            (full, .thumbnailBackgroundSet(ThumbnailBackgroundSet(episodeID: e, background: Fixture.image("bg2")))),
            (full, .thumbnailBackgroundCleared(ThumbnailBackgroundCleared(episodeID: e))),
            (created, .thumbnailOverlaySet(ThumbnailOverlaySet(episodeID: e, overlay: Fixture.image("ov")))),
            (full, .thumbnailOverlayCleared(ThumbnailOverlayCleared(episodeID: e))),
            (created, .thumbnailSettingsChanged(ThumbnailSettingsChanged(episodeID: e, settings: ThumbnailSettings(fontSize: 30)))),
            (full, .thumbnailTextChanged(ThumbnailTextChanged(episodeID: e, text: .episodeNumber))),
            (full, .thumbnailTextChanged(ThumbnailTextChanged(episodeID: e, text: .title))),
            (full, .thumbnailRendered(ThumbnailRendered(episodeID: e, thumbnail: Fixture.render(of: full, format: .png)))),
            (rendered, .thumbnailRendered(ThumbnailRendered(episodeID: e, thumbnail: Fixture.render(of: rendered, format: .png)))),
            (rendered, .thumbnailDiscarded(ThumbnailDiscarded(episodeID: e))),
            (rendered, .thumbnailFontRemoved(ThumbnailFontRemoved(episodeID: e, fontName: "Inter"))),
        ]
    }()

    @Test("the cases cover every event type but the log's own, which is never undone")
    func coverage() {
        let covered = Set((Self.podcastCases + Self.episodeCases + FontDeciderTests.inverseCases).map(\.event.type))
        #expect(covered == Set(DomainEvent.payloadTypes.map { $0.type }).subtracting([LossAccepted.type]))
    }

    @Test("do, then undo, brings a podcast back to the state it had before", arguments: podcastCases.indices)
    func podcastUndo(index: Int) {
        let (history, event) = Self.podcastCases[index]
        expectUndoLaw(PodcastDecider.self, after: history, doing: event, inverse: { Inverses.of($0, before: $1) }, visible: \.live)
    }

    @Test("do, then undo, brings an episode back to the state it had before", arguments: episodeCases.indices)
    func episodeUndo(index: Int) {
        let (history, event) = Self.episodeCases[index]
        expectUndoLaw(EpisodeDecider.self, after: history, doing: event, inverse: { Inverses.of($0, before: $1) }, visible: \.live)
    }

    @Test("undoing a podcast's deletion restores it, and each cascaded episode comes back with its content")
    func cascadeUndo() throws {
        let podcast = PodcastDecider.fold([Fixture.created()])
        let episode = EpisodeDecider.fold(Fixture.withTranscript)
        let deletion = try PodcastDecider.decide(.delete, podcast, PodcastFacts(liveEpisodes: [Fixture.episode]))
        #expect(deletion.count == 2)

        let undo = Inverses.of(deletion[0], before: podcast) + Inverses.of(deletion[1], before: episode)

        #expect(undo.reduce(PodcastDecider.evolve(podcast, deletion[0]), PodcastDecider.evolve) == podcast)
        let restored = undo.reduce(EpisodeDecider.evolve(episode, deletion[1]), EpisodeDecider.evolve)
        #expect(restored == episode)
        #expect(restored.live?.transcript == Fixture.transcript)
    }
}
