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
    case podcastDefaultBackgroundSet(PodcastDefaultBackgroundSet)
    case podcastDefaultBackgroundCleared(PodcastDefaultBackgroundCleared)
    case podcastThumbnailDefaultsChanged(PodcastThumbnailDefaultsChanged)
    case podcastDefaultTextChanged(PodcastDefaultTextChanged)
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
    case thumbnailFontRemoved(ThumbnailFontRemoved)

    case fontImported(FontImported)
    case fontRemoved(FontRemoved)

    case lossAccepted(LossAccepted)

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
        case .podcastDefaultBackgroundSet(let e): e
        case .podcastDefaultBackgroundCleared(let e): e
        case .podcastThumbnailDefaultsChanged(let e): e
        case .podcastDefaultTextChanged(let e): e
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
        case .thumbnailFontRemoved(let e): e
        case .fontImported(let e): e
        case .fontRemoved(let e): e
        case .lossAccepted(let e): e
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

    /// Every payload type, in the order of the cases: the registry for decoding and schema checks.
    public static let payloadTypes: [any EventPayload.Type] = cases.map(\.payloadType)

    /// Every case, as the function that wraps its payload.
    package static let cases: [EventCase] = [
        EventCase(podcastCreated), EventCase(podcastRenamed), EventCase(podcastDescribed), EventCase(podcastArtworkSet),
        EventCase(podcastArtworkCleared), EventCase(podcastDefaultOverlaySet), EventCase(podcastDefaultOverlayCleared),
        EventCase(podcastDefaultBackgroundSet), EventCase(podcastDefaultBackgroundCleared),
        EventCase(podcastThumbnailDefaultsChanged), EventCase(podcastDefaultTextChanged), EventCase(podcastDeleted), EventCase(podcastRestored),
        EventCase(episodeCreated), EventCase(episodeRetitled), EventCase(episodeRenumbered), EventCase(episodeDescribed),
        EventCase(episodePublishDateChanged), EventCase(episodeDeleted), EventCase(episodeRestored),
        EventCase(transcriptImported), EventCase(transcriptReplaced), EventCase(transcriptCleared),
        EventCase(srtGenerated), EventCase(srtDiscarded), EventCase(thumbnailBackgroundSet),
        EventCase(thumbnailBackgroundCleared), EventCase(thumbnailOverlaySet), EventCase(thumbnailOverlayCleared),
        EventCase(thumbnailSettingsChanged), EventCase(thumbnailTextChanged), EventCase(thumbnailRendered),
        EventCase(thumbnailDiscarded), EventCase(thumbnailFontRemoved), EventCase(fontImported), EventCase(fontRemoved),
        EventCase(lossAccepted),
    ]

    /// The cases by the type names written in the log.
    package static let casesByType = Dictionary(uniqueKeysWithValues: cases.map { ($0.payloadType.type, $0) })

    /// Wraps a payload in its case.
    public init(_ payload: any EventPayload) {
        guard let event = Self.casesByType[Swift.type(of: payload).type]?.wrap(payload) else {
            preconditionFailure("\(Swift.type(of: payload)) is not listed in DomainEvent")
        }
        self = event
    }
}

/// One case of ``DomainEvent`` with its payload type: found by type name, it wraps or decodes a payload
/// without trying every case in turn.
package struct EventCase: Sendable {
    package let payloadType: any EventPayload.Type
    /// Makes the function that decodes a payload of this type straight into the case, with a decoder
    /// the caller brings: the domain knows its payloads are `Decodable`, not how JSON is read.
    package let decoder: @Sendable (any PayloadDecoding.Type) -> @Sendable (UnsafeRawBufferPointer) throws -> DomainEvent
    /// Wraps a payload of this type; nil for another type.
    let wrap: @Sendable (any EventPayload) -> DomainEvent?

    init<Payload: EventPayload>(_ wrap: @escaping @Sendable (Payload) -> DomainEvent) {
        payloadType = Payload.self
        decoder = { decoding in { bytes in wrap(try decoding.decode(Payload.self, from: bytes)) } }
        self.wrap = { ($0 as? Payload).map(wrap) }
    }
}

/// A way of reading a payload's bytes into its type: the event codec's JSON decoder.
package protocol PayloadDecoding: SendableMetatype {
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: UnsafeRawBufferPointer) throws -> Value
}

extension DomainEvent {
    /// The warnings a transcript import recorded; empty for every other event.
    public var transcriptWarnings: [TranscriptWarning] {
        switch self {
        case .transcriptImported(let event): event.warnings
        case .transcriptReplaced(let event): event.warnings
        default: []
        }
    }
}
