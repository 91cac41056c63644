/// The compensating events of each event, for undo: appended after it, they bring its stream back to the
/// state it had before. History is never rewritten; an undo is new events.
///
/// The inverse of an event that set something which had no value before is an event that clears it,
/// which is why a few event types (``SRTDiscarded``, ``ThumbnailBackgroundCleared``,
/// ``ThumbnailDiscarded``) exist only as inverses. Undoing a create deletes; the stream then folds to
/// `.deleted`, which every command treats like a stream that never existed, except for its message.
public enum Inverses {
    /// The events that undo `event`, given the state of its podcast stream just before it.
    public static func of(_ event: DomainEvent, before state: PodcastState) -> [DomainEvent] {
        if case .podcastRestored(let e) = event { return [.podcastDeleted(PodcastDeleted(podcastID: e.podcastID))] }
        if case .podcastCreated(let e) = event { return [.podcastDeleted(PodcastDeleted(podcastID: e.podcastID))] }
        guard case .active(let before) = state else { return [] }
        let id = before.id
        switch event {
        case .podcastRenamed:
            return [.podcastRenamed(PodcastRenamed(podcastID: id, name: before.name))]
        case .podcastDescribed:
            return [.podcastDescribed(PodcastDescribed(podcastID: id, description: before.description))]
        case .podcastArtworkSet, .podcastArtworkCleared:
            return [before.artwork.map { .podcastArtworkSet(PodcastArtworkSet(podcastID: id, artwork: $0)) }
                ?? .podcastArtworkCleared(PodcastArtworkCleared(podcastID: id))]
        case .podcastDefaultOverlaySet, .podcastDefaultOverlayCleared:
            return [before.defaultOverlay.map { .podcastDefaultOverlaySet(PodcastDefaultOverlaySet(podcastID: id, overlay: $0)) }
                ?? .podcastDefaultOverlayCleared(PodcastDefaultOverlayCleared(podcastID: id))]
        case .podcastDefaultBackgroundSet, .podcastDefaultBackgroundCleared:
            return [before.defaultBackground.map { .podcastDefaultBackgroundSet(PodcastDefaultBackgroundSet(podcastID: id, background: $0)) }
                ?? .podcastDefaultBackgroundCleared(PodcastDefaultBackgroundCleared(podcastID: id))]
        case .podcastThumbnailDefaultsChanged:
            return [.podcastThumbnailDefaultsChanged(PodcastThumbnailDefaultsChanged(podcastID: id, thumbnailDefaults: before.thumbnailDefaults))]
        case .podcastDefaultTextChanged:
            return [.podcastDefaultTextChanged(PodcastDefaultTextChanged(podcastID: id, text: before.defaultThumbnailText))]
        case .podcastDeleted:
            return [.podcastRestored(PodcastRestored(podcast: before))]
        default:
            return []
        }
    }

    /// The events that undo `event`, given the state of its episode stream just before it.
    public static func of(_ event: DomainEvent, before state: EpisodeState) -> [DomainEvent] {
        if case .episodeRestored(let e) = event { return [.episodeDeleted(EpisodeDeleted(episodeID: e.episodeID))] }
        if case .episodeCreated(let e) = event { return [.episodeDeleted(EpisodeDeleted(episodeID: e.episodeID))] }
        guard case .active(let before) = state else { return [] }
        let id = before.id
        switch event {
        case .episodeRetitled:
            return [.episodeRetitled(EpisodeRetitled(episodeID: id, title: before.title))]
        case .episodeRenumbered:
            return [.episodeRenumbered(EpisodeRenumbered(episodeID: id, number: before.number))]
        case .episodeDescribed:
            return [.episodeDescribed(EpisodeDescribed(episodeID: id, description: before.description))]
        case .episodePublishDateChanged:
            return [.episodePublishDateChanged(EpisodePublishDateChanged(episodeID: id, publishDate: before.publishDate))]
        case .episodeDeleted:
            return [.episodeRestored(EpisodeRestored(episode: before))]
        case .transcriptImported, .transcriptReplaced, .transcriptCleared:
            return [before.transcript.map {
                event.isTranscriptCleared
                    ? .transcriptImported(TranscriptImported(episodeID: id, transcript: $0, warnings: before.transcriptWarnings))
                    : .transcriptReplaced(TranscriptReplaced(episodeID: id, transcript: $0, warnings: before.transcriptWarnings))
            } ?? .transcriptCleared(TranscriptCleared(episodeID: id))]
        case .srtGenerated, .srtDiscarded:
            return [before.subtitles.map { .srtGenerated(SRTGenerated(episodeID: id, subtitles: $0)) }
                ?? .srtDiscarded(SRTDiscarded(episodeID: id))]
        case .thumbnailBackgroundSet, .thumbnailBackgroundCleared:
            return [before.background.map { .thumbnailBackgroundSet(ThumbnailBackgroundSet(episodeID: id, background: $0)) }
                ?? .thumbnailBackgroundCleared(ThumbnailBackgroundCleared(episodeID: id))]
        case .thumbnailOverlaySet, .thumbnailOverlayCleared:
            return [before.overlay.map { .thumbnailOverlaySet(ThumbnailOverlaySet(episodeID: id, overlay: $0)) }
                ?? .thumbnailOverlayCleared(ThumbnailOverlayCleared(episodeID: id))]
        case .thumbnailSettingsChanged:
            return [.thumbnailSettingsChanged(ThumbnailSettingsChanged(episodeID: id, settings: before.thumbnailSettings))]
        case .thumbnailTextChanged:
            return [.thumbnailTextChanged(ThumbnailTextChanged(episodeID: id, text: before.thumbnailText))]
        case .thumbnailRendered, .thumbnailDiscarded, .thumbnailFontRemoved:
            return [before.thumbnail.map { .thumbnailRendered(ThumbnailRendered(episodeID: id, thumbnail: $0)) }
                ?? .thumbnailDiscarded(ThumbnailDiscarded(episodeID: id))]
        default:
            return []
        }
    }
}

extension Inverses {
    /// The events that undo `event`, given the state of the fonts stream just before it: an import is
    /// undone by removing the font (or by putting back the one of that name it replaced), a removal by
    /// importing the same blob again under the same name.
    public static func of(_ event: DomainEvent, before state: FontLibraryState) -> [DomainEvent] {
        switch event {
        case .fontImported(let e):
            return [state.font(named: e.name).map { .fontImported(FontImported(name: $0.name, font: $0.font)) }
                ?? .fontRemoved(FontRemoved(name: e.name))]
        case .fontRemoved(let e):
            return state.font(named: e.name).map { [.fontImported(FontImported(name: $0.name, font: $0.font))] } ?? []
        default:
            return []
        }
    }
}

extension DomainEvent {
    fileprivate var isTranscriptCleared: Bool {
        if case .transcriptCleared = self { return true }
        return false
    }
}
