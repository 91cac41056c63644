import CoreValues

/// Every event of the domain. One case per type, each carrying its payload.
public enum DomainEvent: Hashable, Sendable {
    case podcastCreated(PodcastCreated)
    case podcastRenamed(PodcastRenamed)
    case podcastDescribed(PodcastDescribed)
    case podcastArtworkSet(PodcastArtworkSet)
    case podcastArtworkCleared(PodcastArtworkCleared)
    case podcastDefaultOverlaySet(PodcastDefaultOverlaySet)
    case podcastDefaultOverlayCleared(PodcastDefaultOverlayCleared)
    case podcastThumbnailDefaultsChanged(PodcastThumbnailDefaultsChanged)
    case podcastDeleted(PodcastDeleted)
    case podcastRestored(PodcastRestored)

    case episodeCreated(EpisodeCreated)
    case episodeRetitled(EpisodeRetitled)
    case episodeRenumbered(EpisodeRenumbered)
    case episodeDescribed(EpisodeDescribed)
    case episodePublishDateChanged(EpisodePublishDateChanged)
    case episodeDeleted(EpisodeDeleted)
    case episodeRestored(EpisodeRestored)
    case transcriptImported(TranscriptImported)
    case transcriptReplaced(TranscriptReplaced)
    case transcriptCleared(TranscriptCleared)
    case srtGenerated(SRTGenerated)
    case srtDiscarded(SRTDiscarded)
    case thumbnailBackgroundSet(ThumbnailBackgroundSet)
    case thumbnailBackgroundCleared(ThumbnailBackgroundCleared)
    case thumbnailOverlaySet(ThumbnailOverlaySet)
    case thumbnailOverlayCleared(ThumbnailOverlayCleared)
    case thumbnailSettingsChanged(ThumbnailSettingsChanged)
    case thumbnailTextChanged(ThumbnailTextChanged)
    case thumbnailRendered(ThumbnailRendered)
    case thumbnailDiscarded(ThumbnailDiscarded)

    case fontImported(FontImported)
    case fontRemoved(FontRemoved)

    /// The payload, whatever its type.
    public var payload: any EventPayload {
        switch self {
        case .podcastCreated(let e): e
        case .podcastRenamed(let e): e
        case .podcastDescribed(let e): e
        case .podcastArtworkSet(let e): e
        case .podcastArtworkCleared(let e): e
        case .podcastDefaultOverlaySet(let e): e
        case .podcastDefaultOverlayCleared(let e): e
        case .podcastThumbnailDefaultsChanged(let e): e
        case .podcastDeleted(let e): e
        case .podcastRestored(let e): e
        case .episodeCreated(let e): e
        case .episodeRetitled(let e): e
        case .episodeRenumbered(let e): e
        case .episodeDescribed(let e): e
        case .episodePublishDateChanged(let e): e
        case .episodeDeleted(let e): e
        case .episodeRestored(let e): e
        case .transcriptImported(let e): e
        case .transcriptReplaced(let e): e
        case .transcriptCleared(let e): e
        case .srtGenerated(let e): e
        case .srtDiscarded(let e): e
        case .thumbnailBackgroundSet(let e): e
        case .thumbnailBackgroundCleared(let e): e
        case .thumbnailOverlaySet(let e): e
        case .thumbnailOverlayCleared(let e): e
        case .thumbnailSettingsChanged(let e): e
        case .thumbnailTextChanged(let e): e
        case .thumbnailRendered(let e): e
        case .thumbnailDiscarded(let e): e
        case .fontImported(let e): e
        case .fontRemoved(let e): e
        }
    }

    /// The type name written in the log.
    public var type: String { Swift.type(of: payload).type }
    /// The schema version this build writes for the event's type.
    public var schemaVersion: Int { Swift.type(of: payload).schemaVersion }
    /// The stream the event belongs to.
    public var stream: String { payload.stream }
    /// The blobs the event refers to.
    public var blobs: [BlobRef] { payload.blobs }

    /// Every payload type, with the case that wraps it: the registry for decoding and schema checks.
    public static let payloadTypes: [any EventPayload.Type] = [
        PodcastCreated.self, PodcastRenamed.self, PodcastDescribed.self, PodcastArtworkSet.self,
        PodcastArtworkCleared.self, PodcastDefaultOverlaySet.self, PodcastDefaultOverlayCleared.self,
        PodcastThumbnailDefaultsChanged.self, PodcastDeleted.self, PodcastRestored.self,
        EpisodeCreated.self, EpisodeRetitled.self, EpisodeRenumbered.self, EpisodeDescribed.self,
        EpisodePublishDateChanged.self, EpisodeDeleted.self, EpisodeRestored.self, TranscriptImported.self,
        TranscriptReplaced.self, TranscriptCleared.self, SRTGenerated.self, SRTDiscarded.self,
        ThumbnailBackgroundSet.self, ThumbnailBackgroundCleared.self, ThumbnailOverlaySet.self,
        ThumbnailOverlayCleared.self, ThumbnailSettingsChanged.self, ThumbnailTextChanged.self,
        ThumbnailRendered.self, ThumbnailDiscarded.self, FontImported.self, FontRemoved.self,
    ]

    /// Wraps a payload in its case.
    public init(_ payload: any EventPayload) {
        switch payload {
        case let e as PodcastCreated: self = .podcastCreated(e)
        case let e as PodcastRenamed: self = .podcastRenamed(e)
        case let e as PodcastDescribed: self = .podcastDescribed(e)
        case let e as PodcastArtworkSet: self = .podcastArtworkSet(e)
        case let e as PodcastArtworkCleared: self = .podcastArtworkCleared(e)
        case let e as PodcastDefaultOverlaySet: self = .podcastDefaultOverlaySet(e)
        case let e as PodcastDefaultOverlayCleared: self = .podcastDefaultOverlayCleared(e)
        case let e as PodcastThumbnailDefaultsChanged: self = .podcastThumbnailDefaultsChanged(e)
        case let e as PodcastDeleted: self = .podcastDeleted(e)
        case let e as PodcastRestored: self = .podcastRestored(e)
        case let e as EpisodeCreated: self = .episodeCreated(e)
        case let e as EpisodeRetitled: self = .episodeRetitled(e)
        case let e as EpisodeRenumbered: self = .episodeRenumbered(e)
        case let e as EpisodeDescribed: self = .episodeDescribed(e)
        case let e as EpisodePublishDateChanged: self = .episodePublishDateChanged(e)
        case let e as EpisodeDeleted: self = .episodeDeleted(e)
        case let e as EpisodeRestored: self = .episodeRestored(e)
        case let e as TranscriptImported: self = .transcriptImported(e)
        case let e as TranscriptReplaced: self = .transcriptReplaced(e)
        case let e as TranscriptCleared: self = .transcriptCleared(e)
        case let e as SRTGenerated: self = .srtGenerated(e)
        case let e as SRTDiscarded: self = .srtDiscarded(e)
        case let e as ThumbnailBackgroundSet: self = .thumbnailBackgroundSet(e)
        case let e as ThumbnailBackgroundCleared: self = .thumbnailBackgroundCleared(e)
        case let e as ThumbnailOverlaySet: self = .thumbnailOverlaySet(e)
        case let e as ThumbnailOverlayCleared: self = .thumbnailOverlayCleared(e)
        case let e as ThumbnailSettingsChanged: self = .thumbnailSettingsChanged(e)
        case let e as ThumbnailTextChanged: self = .thumbnailTextChanged(e)
        case let e as ThumbnailRendered: self = .thumbnailRendered(e)
        case let e as ThumbnailDiscarded: self = .thumbnailDiscarded(e)
        case let e as FontImported: self = .fontImported(e)
        case let e as FontRemoved: self = .fontRemoved(e)
        default: preconditionFailure("\(Swift.type(of: payload)) is not listed in DomainEvent")
        }
    }
}
