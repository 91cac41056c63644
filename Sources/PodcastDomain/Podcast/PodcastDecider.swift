import CoreValues

/// The podcast aggregate: decides what a command means for a podcast, and folds its events.
public enum PodcastDecider: Decider {
    public static let initial = PodcastState.initial

    /// The events `command` produces, or the rule it breaks. A command that changes nothing gives no events.
    public static func decide(
        _ command: PodcastCommand, _ state: PodcastState, _ facts: PodcastFacts = PodcastFacts()
    ) throws(DomainError) -> [DomainEvent] {
        if case let .create(id, name, description, at) = command {
            guard case .initial = state else { throw .podcastAlreadyExists(id) }
            let name = try uniqueName(name, for: id, facts)
            return [.podcastCreated(PodcastCreated(
                podcastID: id, name: name, description: try Rules.optionalText(description, .description),
                createdAt: at, thumbnailDefaults: .defaults))]
        }
        let podcast = try state.requireLive()
        let id = podcast.id
        switch command {
        case .create:
            preconditionFailure("handled above")
        case .rename(let name):
            let name = try uniqueName(name, for: id, facts)
            return name == podcast.name ? [] : [.podcastRenamed(PodcastRenamed(podcastID: id, name: name))]
        case .describe(let text):
            let description = try Rules.optionalText(text, .description)
            return description == podcast.description
                ? [] : [.podcastDescribed(PodcastDescribed(podcastID: id, description: description))]
        case .setArtwork(let image):
            let image = try Rules.image(image)
            return image == podcast.artwork ? [] : [.podcastArtworkSet(PodcastArtworkSet(podcastID: id, artwork: image))]
        case .clearArtwork:
            return podcast.artwork == nil ? [] : [.podcastArtworkCleared(PodcastArtworkCleared(podcastID: id))]
        case .setDefaultOverlay(let image):
            let image = try Rules.image(image)
            return image == podcast.defaultOverlay
                ? [] : [.podcastDefaultOverlaySet(PodcastDefaultOverlaySet(podcastID: id, overlay: image))]
        case .clearDefaultOverlay:
            return podcast.defaultOverlay == nil
                ? [] : [.podcastDefaultOverlayCleared(PodcastDefaultOverlayCleared(podcastID: id))]
        case .setDefaultBackground(let image):
            let image = try Rules.image(image)
            return image == podcast.defaultBackground
                ? [] : [.podcastDefaultBackgroundSet(PodcastDefaultBackgroundSet(podcastID: id, background: image))]
        case .clearDefaultBackground:
            return podcast.defaultBackground == nil
                ? [] : [.podcastDefaultBackgroundCleared(PodcastDefaultBackgroundCleared(podcastID: id))]
        case .changeThumbnailDefaults(let settings):
            let settings = try Rules.settings(settings)
            return settings == podcast.thumbnailDefaults
                ? [] : [.podcastThumbnailDefaultsChanged(PodcastThumbnailDefaultsChanged(podcastID: id, thumbnailDefaults: settings))]
        case .changeDefaultThumbnailText(let text):
            let text = try Rules.thumbnailText(text)
            return text == podcast.defaultThumbnailText
                ? [] : [.podcastDefaultTextChanged(PodcastDefaultTextChanged(podcastID: id, text: text))]
        case .delete:
            return [.podcastDeleted(PodcastDeleted(podcastID: id))]
                + facts.liveEpisodes.sorted().map { .episodeDeleted(EpisodeDeleted(episodeID: $0)) }
        }
    }

    /// The state after `event`. Events of other streams leave it as it is.
    public static func evolve(_ state: PodcastState, _ event: DomainEvent) -> PodcastState {
        if case .podcastCreated(let e) = event {
            return .active(Podcast(
                id: e.podcastID, name: e.name, description: e.description, createdAt: e.createdAt,
                thumbnailDefaults: e.thumbnailDefaults))
        }
        if case .podcastRestored(let e) = event { return .active(e.podcast) }
        guard case .active(var podcast) = state else { return state }
        switch event {
        case .podcastRenamed(let e): podcast.name = e.name
        case .podcastDescribed(let e): podcast.description = e.description
        case .podcastArtworkSet(let e): podcast.artwork = e.artwork
        case .podcastArtworkCleared: podcast.artwork = nil
        case .podcastDefaultOverlaySet(let e): podcast.defaultOverlay = e.overlay
        case .podcastDefaultOverlayCleared: podcast.defaultOverlay = nil
        case .podcastDefaultBackgroundSet(let e): podcast.defaultBackground = e.background
        case .podcastDefaultBackgroundCleared: podcast.defaultBackground = nil
        case .podcastThumbnailDefaultsChanged(let e): podcast.thumbnailDefaults = e.thumbnailDefaults
        case .podcastDefaultTextChanged(let e): podcast.defaultThumbnailText = e.text
        case .podcastDeleted: return .deleted(podcast)
        default: break
        }
        return .active(podcast)
    }

    /// What each event type does in ``evolve``, for folds that skip overwritten events (see ``NeededEvents``).
    /// A deletion is not listed: nothing is skipped across it.
    public static let effects: [String: EventEffect<Podcast.Field>] = [
        PodcastCreated.type: .replacesState, PodcastRestored.type: .replacesState,
        PodcastRenamed.type: .sets(.name), PodcastDescribed.type: .sets(.description),
        PodcastArtworkSet.type: .sets(.artwork), PodcastArtworkCleared.type: .sets(.artwork),
        PodcastDefaultOverlaySet.type: .sets(.defaultOverlay),
        PodcastDefaultOverlayCleared.type: .sets(.defaultOverlay),
        PodcastDefaultBackgroundSet.type: .sets(.defaultBackground),
        PodcastDefaultBackgroundCleared.type: .sets(.defaultBackground),
        PodcastThumbnailDefaultsChanged.type: .sets(.thumbnailDefaults),
        PodcastDefaultTextChanged.type: .sets(.defaultThumbnailText),
    ]

    private static func uniqueName(_ name: String, for id: PodcastID, _ facts: PodcastFacts) throws(DomainError) -> String {
        let name = try Rules.name(name, .podcastName)
        let key = Rules.nameKey(name)
        let others = facts.otherPodcastNames.sorted { $0.key < $1.key }
        if let (other, _) = others.first(where: { $0.key != id && Rules.nameKey($0.value) == key }) {
            throw .podcastNameTaken(name, by: other)
        }
        return name
    }
}
