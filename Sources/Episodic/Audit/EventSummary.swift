import PodcastDomain

/// An event on one line, for `episodic log`: what it set, in the words of ``FieldText``.
enum EventSummary {
    /// `podcastName` names the podcast an episode is created in, when it can.
    static func line(_ event: DomainEvent, podcastName: (PodcastID) -> String? = { _ in nil }) -> String {
        switch event {
        case .podcastCreated(let e): "name \(FieldText.text(e.name))"
        case .podcastRenamed(let e): "name \(FieldText.text(e.name))"
        case .podcastDescribed(let e): "description \(FieldText.text(e.description))"
        case .podcastArtworkSet(let e): "artwork \(FieldText.image(e.artwork))"
        case .podcastArtworkCleared: "artwork none"
        case .podcastDefaultOverlaySet(let e): "default overlay \(FieldText.image(e.overlay))"
        case .podcastDefaultOverlayCleared: "default overlay none"
        case .podcastDefaultBackgroundSet(let e): "default background \(FieldText.image(e.background))"
        case .podcastDefaultBackgroundCleared: "default background none"
        case .podcastThumbnailDefaultsChanged(let e): "thumbnail defaults \(FieldText.settingsAgainstDefaults(e.thumbnailDefaults))"
        case .podcastDefaultTextChanged(let e): "default thumbnail text \(FieldText.thumbnailText(e.text))"
        case .podcastDeleted: "deleted"
        case .podcastRestored(let e): "restored as \(FieldText.text(e.podcast.name))"
        case .episodeCreated(let e):
            "#\(e.number) \(FieldText.text(e.title)) in podcast " + (podcastName(e.podcastID).map(FieldText.text) ?? String(e.podcastID.description.prefix(8)))
        case .episodeRetitled(let e): "title \(FieldText.text(e.title))"
        case .episodeRenumbered(let e): "number \(e.number)"
        case .episodeDescribed(let e): "description \(FieldText.text(e.description))"
        case .episodePublishDateChanged(let e): "publish date \(FieldText.publishDate(e.publishDate))"
        case .episodeDeleted: "deleted"
        case .episodeRestored(let e): "restored as #\(e.episode.number) \(FieldText.text(e.episode.title))"
        case .transcriptImported(let e): "transcript \(FieldText.blob(e.transcript))"
        case .transcriptReplaced(let e): "transcript \(FieldText.blob(e.transcript))"
        case .transcriptCleared: "transcript none"
        case .srtGenerated(let e): "subtitles \(FieldText.subtitles(e.subtitles))"
        case .srtDiscarded: "subtitles none"
        case .thumbnailBackgroundSet(let e): "background \(FieldText.image(e.background))"
        case .thumbnailBackgroundCleared: "background none"
        case .thumbnailOverlaySet(let e): "overlay \(FieldText.image(e.overlay))"
        case .thumbnailOverlayCleared: "overlay none"
        case .thumbnailSettingsChanged(let e): "thumbnail settings \(FieldText.settingsAgainstDefaults(e.settings))"
        case .thumbnailTextChanged(let e): "thumbnail text \(FieldText.thumbnailText(e.text))"
        case .thumbnailRendered(let e): "thumbnail \(FieldText.thumbnail(e.thumbnail))"
        case .thumbnailDiscarded: "thumbnail none"
        case .thumbnailFontRemoved(let e): "thumbnail outdated: its font \(FieldText.text(e.fontName)) was removed"
        case .fontImported(let e): "font \(FieldText.text(e.name)) \(FieldText.blob(e.font))"
        case .fontRemoved(let e): "font \(FieldText.text(e.name)) removed"
        case .lossAccepted(let e): "accepted the loss of \(FieldText.loss(e))"
        }
    }
}

extension LoggedEvent {
    /// What the event set, on one line.
    public var summary: String { EventSummary.line(event) }

    /// What the event set, on one line, naming podcasts by name where `podcastName` knows them
    /// (``Library/podcastNamer()``).
    public func summary(podcastName: (PodcastID) -> String?) -> String { EventSummary.line(event, podcastName: podcastName) }
}
