import PodcastDomain

/// The states of podcasts and episodes written down for the folds kept of long streams (the log's
/// `StreamSnapshots`): the payload encoding of ``PodcastDomain/EntityState``.
public enum KeptStates {
    /// Names the encoding and the deciders' `evolve` as they stand. Bump it whenever a state's fields or
    /// an `evolve` change: a fold kept by another build is then passed over, and the stream folded again.
    public static let format = "episodic-state-3"

    /// The state of `aggregate` in `state`, encoded; nil for the fonts and log streams, which are short and never kept.
    public static func encode(_ aggregate: AggregateKey, of state: LibraryState) -> [UInt8]? {
        switch aggregate {
        case .podcast(let id): try? PayloadEncoder.encode(state.podcast(id))
        case .episode(let id): try? PayloadEncoder.encode(state.episode(id))
        case .fonts, .log: nil
        }
    }

    /// A podcast's state, encoded; nil for a podcast that never existed (`.initial`), which needs no keeping.
    public static func encode(_ state: PodcastState) throws -> [UInt8]? {
        state.existing == nil ? nil : try PayloadEncoder.encode(state)
    }

    /// An episode's state, encoded; nil for `.initial`, likewise.
    public static func encode(_ state: EpisodeState) throws -> [UInt8]? {
        state.existing == nil ? nil : try PayloadEncoder.encode(state)
    }

    /// Loads into `state` the state of `aggregate` that `bytes` hold; false, changing nothing, when
    /// they do not decode as the state of an entity that exists, and is that one (a fold is kept only
    /// after events).
    public static func load(_ bytes: [UInt8], as aggregate: AggregateKey, into state: inout LibraryState) -> Bool {
        switch aggregate {
        case .podcast(let id):
            guard let kept = podcast(id, from: bytes) else { return false }
            state.load(id, from: kept)
        case .episode(let id):
            guard let kept = episode(id, from: bytes) else { return false }
            state.load(id, from: kept)
        case .fonts, .log:
            return false
        }
        return true
    }

    /// The state of podcast `id` that `bytes` hold; nil unless they decode as that podcast's.
    public static func podcast(_ id: PodcastID, from bytes: [UInt8]) -> PodcastState? {
        decoded(PodcastState.self, from: bytes).flatMap { $0.existing?.id == id ? $0 : nil }
    }

    /// The state of episode `id` that `bytes` hold; nil unless they decode as that episode's.
    public static func episode(_ id: EpisodeID, from bytes: [UInt8]) -> EpisodeState? {
        decoded(EpisodeState.self, from: bytes).flatMap { $0.existing?.id == id ? $0 : nil }
    }

    private static func decoded<State: Decodable>(_ type: State.Type, from bytes: [UInt8]) -> State? {
        bytes.withUnsafeBytes { try? PayloadDecoder.decode(type, from: $0) }
    }
}
