import PodcastDomain

/// The states of podcasts and episodes written down for the folds kept of long streams (the log's
/// `StreamSnapshots`): the payload encoding of ``PodcastDomain/EntityState``.
public enum KeptStates {
    /// Names the encoding and the deciders' `evolve` as they stand. Bump it whenever a state's fields or
    /// an `evolve` change: a fold kept by another build is then passed over, and the stream folded again.
    public static let format = "episodic-state-1"

    /// The state of `aggregate` in `state`, encoded; nil for the fonts stream, which is short and never kept.
    public static func encode(_ aggregate: AggregateKey, of state: LibraryState) -> [UInt8]? {
        switch aggregate {
        case .podcast(let id): try? PayloadEncoder.encode(state.podcast(id))
        case .episode(let id): try? PayloadEncoder.encode(state.episode(id))
        case .fonts: nil
        }
    }

    /// Loads into `state` the state of `aggregate` that `bytes` hold; false, changing nothing, when
    /// they do not decode as the state of an entity that exists, and is that one (a fold is kept only
    /// after events).
    public static func load(_ bytes: [UInt8], as aggregate: AggregateKey, into state: inout LibraryState) -> Bool {
        bytes.withUnsafeBytes { raw in
            switch aggregate {
            case .podcast(let id):
                guard let kept = try? PayloadDecoder.decode(PodcastState.self, from: raw), kept.existing?.id == id else { return false }
                state.load(id, from: kept)
            case .episode(let id):
                guard let kept = try? PayloadDecoder.decode(EpisodeState.self, from: raw), kept.existing?.id == id else { return false }
                state.load(id, from: kept)
            case .fonts:
                return false
            }
            return true
        }
    }
}
