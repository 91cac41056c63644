/// The aggregate an event belongs to: the stream it is written in.
public enum AggregateKey: Hashable, Sendable {
    case podcast(PodcastID)
    case episode(EpisodeID)
    /// The library's one fonts stream.
    case fonts
    /// The log's own stream (``LogDecider``).
    case log

    /// The name of its stream in the log.
    public var streamName: String {
        switch self {
        case .podcast(let id): id.streamName
        case .episode(let id): id.streamName
        case .fonts: FontDecider.streamName
        case .log: LogDecider.streamName
        }
    }

    /// The aggregate whose stream is named `streamName`; nil for a name no aggregate has.
    public init?(streamName: String) {
        var name = streamName
        let found: AggregateKey? = name.withUTF8 { utf8 in
            if let id = PodcastID(streamName: UnsafeRawBufferPointer(utf8)) { return .podcast(id) }
            if let id = EpisodeID(streamName: UnsafeRawBufferPointer(utf8)) { return .episode(id) }
            switch streamName {
            case FontDecider.streamName: return .fonts
            case LogDecider.streamName: return .log
            default: return nil
            }
        }
        guard let found else { return nil }
        self = found
    }
}

extension DomainEvent {
    /// The aggregate whose stream holds this event.
    public var aggregate: AggregateKey { payload.aggregate }
}

/// Every aggregate of a library folded: the one place that routes an event to its decider's `evolve`.
///
/// It holds what it has been given: an aggregate it has not seen is at its decider's `initial`. A shell
/// that reads streams one at a time (the write path) loads an aggregate's stream with
/// ``load(_:from:)`` before evolving it; a fold of the whole log needs no loading.
public struct LibraryState: Hashable, Sendable {
    public private(set) var podcasts: [PodcastID: PodcastState] = [:]
    public private(set) var episodes: [EpisodeID: EpisodeState] = [:]
    public private(set) var fonts = FontDecider.initial
    public private(set) var log = LogDecider.initial

    public init() {}

    /// Folds `events`, in order, from an empty library.
    public init(folding events: some Sequence<DomainEvent>) {
        for event in events { evolve(event) }
    }

    public func podcast(_ id: PodcastID) -> PodcastState { podcasts[id] ?? PodcastDecider.initial }
    public func episode(_ id: EpisodeID) -> EpisodeState { episodes[id] ?? EpisodeDecider.initial }

    /// Applies `event` to the aggregate it belongs to, through that aggregate's decider.
    public mutating func evolve(_ event: DomainEvent) {
        switch event.aggregate {
        case .podcast(let id): podcasts[id] = PodcastDecider.evolve(podcast(id), event)
        case .episode(let id): episodes[id] = EpisodeDecider.evolve(episode(id), event)
        case .fonts: fonts = FontDecider.evolve(fonts, event)
        case .log: log = LogDecider.evolve(log, event)
        }
    }

    /// Sets a podcast's state to one folded earlier (a fold the shell kept), to be evolved on with the
    /// events of its stream after it.
    public mutating func load(_ id: PodcastID, from state: PodcastState) { podcasts[id] = state }

    /// Sets an episode's state to one folded earlier, likewise.
    public mutating func load(_ id: EpisodeID, from state: EpisodeState) { episodes[id] = state }

    /// Sets an aggregate's state to the fold of its whole stream, `events`, read elsewhere (through the
    /// stream index). The aggregate is then in ``podcasts`` or ``episodes`` even when its stream is
    /// empty.
    public mutating func load(_ aggregate: AggregateKey, from events: [DomainEvent]) {
        switch aggregate {
        case .podcast(let id): podcasts[id] = PodcastDecider.fold(events)
        case .episode(let id): episodes[id] = EpisodeDecider.fold(events)
        case .fonts: fonts = FontDecider.fold(events)
        case .log: log = LogDecider.fold(events)
        }
    }
}
