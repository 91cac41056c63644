import CoreValues

/// The episode aggregate: decides what a command means for an episode, and folds its events.
public enum EpisodeDecider: Decider {
    public static let initial = EpisodeState.initial

    /// The longest side of a stored thumbnail, in pixels (exports are full size).
    public static let storedThumbnailSide = 1024

    /// The events `command` produces, or the rule it breaks. A command that changes nothing gives no events.
    public static func decide(_ command: EpisodeCommand, _ state: EpisodeState, _ facts: EpisodeFacts) throws(DomainError) -> [DomainEvent] {
        if case let .create(id, title, number, description, publishDate, at) = command {
            guard case .initial = state else { throw .episodeAlreadyExists(id) }
            let podcast = try facts.podcast.requireLive()
            let number = try uniqueNumber(number ?? ((facts.otherNumbers.keys.max() ?? 0) + 1), for: id, facts)
            return [.episodeCreated(EpisodeCreated(
                episodeID: id, podcastID: podcast.id, title: try Rules.name(title, .episodeTitle), number: number,
                description: try Rules.optionalText(description, .description), publishDate: publishDate,
                createdAt: at, thumbnailSettings: podcast.thumbnailDefaults, overlay: podcast.defaultOverlay,
                background: podcast.defaultBackground ?? podcast.artwork, thumbnailText: podcast.defaultThumbnailText))]
        }
        let episode = try state.requireLive()
        let id = episode.id
        func unless(_ unchanged: Bool, _ event: @autoclosure () -> DomainEvent) -> [DomainEvent] {
            unchanged ? [] : [event()]
        }
        switch command {
        case .create:
            preconditionFailure("handled above")
        case .retitle(let text):
            let title = try Rules.name(text, .episodeTitle)
            return unless(title == episode.title, .episodeRetitled(EpisodeRetitled(episodeID: id, title: title)))
        case .renumber(let requested):
            let number = try uniqueNumber(requested, for: id, facts)
            return unless(number == episode.number, .episodeRenumbered(EpisodeRenumbered(episodeID: id, number: number)))
        case .describe(let text):
            let description = try Rules.optionalText(text, .description)
            return unless(description == episode.description, .episodeDescribed(EpisodeDescribed(episodeID: id, description: description)))
        case .setPublishDate(let date):
            return unless(date == episode.publishDate, .episodePublishDateChanged(EpisodePublishDateChanged(episodeID: id, publishDate: date)))
        case .delete:
            return [.episodeDeleted(EpisodeDeleted(episodeID: id))]

        case let .importTranscript(bytes, ref, strict):
            let warnings = try (facts.transcriptCheck?.outcome(of: ref, strict: strict) ?? TranscriptCheck(bytes, ref, strict: strict).outcome).get()
            guard let current = episode.transcript else {
                return [.transcriptImported(TranscriptImported(episodeID: id, transcript: ref, warnings: warnings))]
            }
            return unless(current == ref, .transcriptReplaced(TranscriptReplaced(episodeID: id, transcript: ref, warnings: warnings)))
        case .clearTranscript:
            return unless(episode.transcript == nil, .transcriptCleared(TranscriptCleared(episodeID: id)))
        case .recordSubtitles(let subtitles):
            let subtitles = try Rules.subtitles(subtitles)
            guard let transcript = episode.transcript else { throw .noTranscript }
            guard subtitles.transcript == transcript else { throw .subtitlesFromAnotherTranscript }
            return unless(subtitles == episode.subtitles, .srtGenerated(SRTGenerated(episodeID: id, subtitles: subtitles)))

        case .setBackground(let image):
            let image = try Rules.image(image)
            return unless(image == episode.background, .thumbnailBackgroundSet(ThumbnailBackgroundSet(episodeID: id, background: image)))
        case .setOverlay(let image):
            let image = try Rules.image(image)
            return unless(image == episode.overlay, .thumbnailOverlaySet(ThumbnailOverlaySet(episodeID: id, overlay: image)))
        case .clearOverlay:
            return unless(episode.overlay == nil, .thumbnailOverlayCleared(ThumbnailOverlayCleared(episodeID: id)))
        case .changeThumbnailSettings(let settings):
            let settings = try Rules.settings(settings)
            return unless(settings == episode.thumbnailSettings, .thumbnailSettingsChanged(ThumbnailSettingsChanged(episodeID: id, settings: settings)))
        case .changeThumbnailText(let text):
            let text = try Rules.thumbnailText(text)
            return unless(text == episode.thumbnailText, .thumbnailTextChanged(ThumbnailTextChanged(episodeID: id, text: text)))
        case .recordThumbnail(let thumbnail):
            guard let inputs = episode.thumbnailInputs else { throw .renderNeedsBackground }
            guard thumbnail.inputs == inputs else { throw .renderFromOutdatedInputs }
            let image = try Rules.image(thumbnail.image)
            guard max(image.width, image.height) <= storedThumbnailSide else {
                throw .settingOutOfRange(
                    setting: "stored thumbnail size", value: "\(image.width) x \(image.height)",
                    allowed: "at most \(storedThumbnailSide) pixels on the longest side")
            }
            return unless(thumbnail == episode.thumbnail, .thumbnailRendered(ThumbnailRendered(episodeID: id, thumbnail: thumbnail)))
        }
    }

    /// The state after `event`. Events of other streams leave it as it is.
    public static func evolve(_ state: EpisodeState, _ event: DomainEvent) -> EpisodeState {
        if case .episodeCreated(let e) = event {
            return .active(Episode(
                id: e.episodeID, podcastID: e.podcastID, title: e.title, number: e.number, description: e.description,
                publishDate: e.publishDate, createdAt: e.createdAt, thumbnailSettings: e.thumbnailSettings,
                thumbnailText: e.thumbnailText, background: e.background, overlay: e.overlay))
        }
        if case .episodeRestored(let e) = event { return .active(e.episode) }
        guard case .active(var episode) = state else { return state }
        switch event {
        case .episodeRetitled(let e): episode.title = e.title
        case .episodeRenumbered(let e): episode.number = e.number
        case .episodeDescribed(let e): episode.description = e.description
        case .episodePublishDateChanged(let e): episode.publishDate = e.publishDate
        case .episodeDeleted: return .deleted(episode)
        case .transcriptImported(let e): (episode.transcript, episode.transcriptWarnings) = (e.transcript, e.warnings)
        case .transcriptReplaced(let e): (episode.transcript, episode.transcriptWarnings) = (e.transcript, e.warnings)
        case .transcriptCleared: (episode.transcript, episode.transcriptWarnings) = (nil, [])
        case .srtGenerated(let e): episode.subtitles = e.subtitles
        case .srtDiscarded: episode.subtitles = nil
        case .thumbnailBackgroundSet(let e): episode.background = e.background
        case .thumbnailBackgroundCleared: episode.background = nil
        case .thumbnailOverlaySet(let e): episode.overlay = e.overlay
        case .thumbnailOverlayCleared: episode.overlay = nil
        case .thumbnailSettingsChanged(let e): episode.thumbnailSettings = e.settings
        case .thumbnailTextChanged(let e): episode.thumbnailText = e.text
        case .thumbnailRendered(let e): episode.thumbnail = e.thumbnail
        case .thumbnailDiscarded: episode.thumbnail = nil
        case .thumbnailFontRemoved: episode.thumbnail?.fontRemoved = true
        default: break
        }
        return .active(episode)
    }

    /// What each event type does in ``evolve``, for folds that skip overwritten events (see ``NeededEvents``).
    /// A deletion is not listed: nothing is skipped across it.
    public static let effects: [String: EventEffect<Episode.Field>] = [
        EpisodeCreated.type: .replacesState, EpisodeRestored.type: .replacesState,
        EpisodeRetitled.type: .sets(.title), EpisodeRenumbered.type: .sets(.number),
        EpisodeDescribed.type: .sets(.description), EpisodePublishDateChanged.type: .sets(.publishDate),
        TranscriptImported.type: .sets(.transcript), TranscriptReplaced.type: .sets(.transcript),
        TranscriptCleared.type: .sets(.transcript),
        SRTGenerated.type: .sets(.subtitles), SRTDiscarded.type: .sets(.subtitles),
        ThumbnailBackgroundSet.type: .sets(.background), ThumbnailBackgroundCleared.type: .sets(.background),
        ThumbnailOverlaySet.type: .sets(.overlay), ThumbnailOverlayCleared.type: .sets(.overlay),
        ThumbnailSettingsChanged.type: .sets(.thumbnailSettings), ThumbnailTextChanged.type: .sets(.thumbnailText),
        ThumbnailRendered.type: .sets(.thumbnail), ThumbnailDiscarded.type: .sets(.thumbnail),
    ]

    private static func uniqueNumber(_ number: Int, for id: EpisodeID, _ facts: EpisodeFacts) throws(DomainError) -> Int {
        let number = try Rules.episodeNumber(number)
        if let other = facts.otherNumbers[number], other != id { throw .episodeNumberTaken(number, by: other) }
        return number
    }
}
