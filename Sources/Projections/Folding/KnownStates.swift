import CoreValues
import EventLog
import PodcastDomain

/// The states of some podcasts and episodes as they stood at one position of the log, folded by a
/// caller that had to fold them anyway: the write path decides on them before it appends. A fold that
/// starts at that very position takes them instead of reading their streams again (``EntityFold``); at
/// any other position they say nothing, and the streams are read as always.
///
/// They must be what folding each stream through `position` gives, with the domain's own `evolve`:
/// `log verify` compares the read models with a replay, which folds every stream from its start.
public struct KnownStates: Sendable {
    /// The position every state stands at: the last event folded into them is at or before it.
    public let position: LogPosition
    public private(set) var podcasts: [PodcastID: PodcastState] = [:]
    public private(set) var episodes: [EpisodeID: EpisodeState] = [:]

    public init(at position: LogPosition) {
        self.position = position
    }

    /// Keeps the first state given for a podcast: later ones have the caller's own changes in them.
    public mutating func keepFirst(_ state: PodcastState, of id: PodcastID) {
        if podcasts[id] == nil { podcasts[id] = state }
    }

    /// Keeps the first state given for an episode, likewise.
    public mutating func keepFirst(_ state: EpisodeState, of id: EpisodeID) {
        if episodes[id] == nil { episodes[id] = state }
    }
}
