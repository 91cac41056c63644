import CoreValues
import EventCodec
import EventLog
import Foundation
import PodcastDomain
import Projections

/// The library as a batch of commands sees it: streams' states folded from the log, and the facts the
/// rules need, read from the read model as the batch's own events have changed them, so that a later
/// command of an atomic batch sees what earlier ones did.
///
/// Everything is read on first use, and only what a command needs: its own streams, and the facts
/// its rule looks at (one number's holder, the highest number), never a podcast's whole episode list.
/// A fact is the read model's answer corrected by the streams loaded here: every stream the batch
/// changed is loaded, and the read model has not seen the batch's events. Under the writer lock, with
/// the read model caught up to the head, the facts are exact; outside it (to resolve a name for a
/// query) they are a snapshot.
final class Workspace {
    let log: any LogStore
    let readModel: ReadModel
    /// The streams loaded so far, as the batch has left them.
    private var state = LibraryState()
    private var loaded: Set<AggregateKey> = []
    private var numbers = LoadedNumbers()
    /// Each loaded stream's version: as read from the log, then advanced by the batch's events.
    private(set) var versions: [StreamID: Int] = [:]
    /// The streams read since ``startReading()``: what a decision looked at, which its commit expects
    /// unchanged.
    private var read: Set<StreamID> = []
    private var storedNames: [PodcastID: String]?
    /// The read model's live podcasts by ``Rules/nameKey(_:)``, built on first use.
    private var storedNameKeys: [String: PodcastID]?
    /// ``Rules/nameKey(_:)`` of the names met so far, which folding Unicode makes worth keeping.
    private var nameKeys: [String: String] = [:]
    /// The read model's answers to "which episode holds this number", kept: it does not change while
    /// the batch runs, and a script names the same episodes again and again.
    private var storedHolders: [PodcastID: [Int: EpisodeID?]] = [:]
    /// Content of the batch's accepted commands, not yet in the blob store.
    private var pendingBlobs: [BlobRef: [UInt8]] = [:]
    /// The podcasts and episodes the events applied since ``beginChanges(at:)`` change, as they stood
    /// at that position: where the projection of those events starts its fold. Nil once the streams
    /// are read again at another position (``forgetStreams()``).
    private(set) var statesBeforeChanges: KnownStates?

    init(log: any LogStore, readModel: ReadModel) {
        self.log = log
        self.readModel = readModel
    }

    /// Forgets every stream loaded so far, keeping the batch's content: for a batch whose commands are
    /// all appended, after the log has grown under it (a shared library's teammates), so that the next
    /// command reads the streams again.
    func forgetStreams() {
        state = LibraryState()
        loaded = []
        numbers = LoadedNumbers()
        versions = [:]
        storedNames = nil
        storedNameKeys = nil
        storedHolders = [:]
        statesBeforeChanges = nil
    }

    /// Starts recording the states the next events change (``statesBeforeChanges``), as of `position`:
    /// the log's head, every stream loaded so far standing there. Under the writer lock, before a
    /// group of commands is decided.
    func beginChanges(at position: LogPosition) {
        statesBeforeChanges = KnownStates(at: position)
    }

    // MARK: States

    func podcast(_ id: PodcastID) throws -> PodcastState {
        try load(.podcast(id))
        read.insert(StreamID(domain: id.streamName))
        return state.podcast(id)
    }

    func episode(_ id: EpisodeID) throws -> EpisodeState {
        try load(.episode(id))
        read.insert(StreamID(domain: id.streamName))
        return state.episode(id)
    }

    /// The library's fonts, as the batch has left them. The stream is short, so it is read whole.
    func fonts() throws -> FontLibraryState {
        try load(.fonts)
        read.insert(StreamID(domain: AggregateKey.fonts.streamName))
        return state.fonts
    }

    /// The episodes loaded so far, with their states as the batch has left them. Reading them all
    /// counts as reading every one.
    var loadedEpisodes: [EpisodeID: EpisodeState] {
        read.formUnion(episodes.keys.map { StreamID(domain: $0.streamName) })
        return episodes
    }
    /// The podcasts loaded so far, likewise.
    var loadedPodcasts: [PodcastID: PodcastState] {
        read.formUnion(podcasts.keys.map { StreamID(domain: $0.streamName) })
        return podcasts
    }

    /// Starts a new record of the streams read: before each decision that is committed alone.
    func startReading() { read = [] }

    /// The version of each stream read since ``startReading()``, as the batch has left it.
    var versionsRead: [StreamID: Int] {
        Dictionary(uniqueKeysWithValues: read.map { ($0, versions[$0] ?? 0) })
    }
    private var podcasts: [PodcastID: PodcastState] { state.podcasts }
    private var episodes: [EpisodeID: EpisodeState] { state.episodes }

    /// Reads an aggregate's stream through the stream index, the first time it is asked for: only the
    /// events after the fold kept of it (``StreamSnapshots``), when the log still holds the event that
    /// fold stands after. A load that folds ``keptFoldInterval`` events or more keeps its fold, so that a
    /// podcast's long stream is read whole once, not by every command on it.
    private func load(_ aggregate: AggregateKey) throws {
        guard !loaded.contains(aggregate) else { return }
        let stream = StreamID(domain: aggregate.streamName)
        var folded = 0
        var last: (position: LogPosition, version: Int)?
        let evolve = { [self] (envelope: EventEnvelope) in
            state.evolve(try DomainEvents.decode(envelope))
            folded += 1
            last = (envelope.position, envelope.streamVersion)
        }
        if let kept = log.snapshots.snapshot(of: stream, format: KeptStates.format),
            KeptStates.load(kept.state, as: aggregate, into: &state), try log.read(stream: stream, after: kept.point, evolve)
        {
            versions[stream] = kept.point.version + folded
        } else {
            state.load(aggregate, from: [])
            try log.read(stream: stream, evolve)
            versions[stream] = folded
        }
        if folded >= Self.keptFoldInterval, let last, let encoded = KeptStates.encode(aggregate, of: state),
            let identity = try log.identity(at: last.position)
        {
            let point = StreamPoint(position: last.position, version: last.version, identity: identity)
            log.snapshots.keep(StreamSnapshot(point: point, format: KeptStates.format, state: encoded), of: stream)
        }
        if case .episode(let id) = aggregate { numbers.load(id, state.episode(id)) }
        loaded.insert(aggregate)
    }

    /// How many events a load folds before it keeps its fold.
    static let keptFoldInterval = 16

    /// Folds accepted events into the states they belong to. Returns the versions of the streams they
    /// touch as they were before them: what their commit expects.
    ///
    /// An entity deleted here loses its kept fold (``StreamSnapshots``), which would otherwise stay in
    /// `snapshots/` for good: nothing loads a deleted entity but a restore, which can read its stream.
    @discardableResult
    func apply(_ events: [DomainEvent]) throws -> [StreamID: Int] {
        var before: [StreamID: Int] = [:]
        for event in events {
            try load(event.aggregate)
            let stream = StreamID(domain: event.stream)
            let deleted: Bool
            switch event.aggregate {
            case .episode(let id):
                let old = state.episode(id)
                statesBeforeChanges?.keepFirst(old, of: id)
                state.evolve(event)
                numbers.update(id, from: old, to: state.episode(id))
                deleted = old.live != nil && state.episode(id).live == nil
            case .podcast(let id):
                let old = state.podcast(id)
                statesBeforeChanges?.keepFirst(old, of: id)
                state.evolve(event)
                deleted = old.live != nil && state.podcast(id).live == nil
            case .fonts, .log:
                state.evolve(event)
                deleted = false
            }
            if deleted { log.snapshots.remove(of: stream) }
            if before[stream] == nil { before[stream] = versions[stream] ?? 0 }
            versions[stream, default: 0] += 1
        }
        return before
    }

    /// Keeps an accepted command's content at hand for later commands of the batch.
    func hold(_ blobs: [[UInt8]]) {
        for bytes in blobs { pendingBlobs[BlobStore.reference(for: bytes)] = bytes }
    }

    /// Content by reference: the batch's own, else the blob store's.
    func blob(_ ref: BlobRef) throws -> [UInt8] {
        if let bytes = pendingBlobs[ref] { return bytes }
        do {
            return try log.blob(ref)
        } catch let error as EventLogError {
            throw LibraryError.blobUnreadable(error)
        }
    }

    // MARK: Facts

    /// Every live podcast's name.
    func podcastNames() throws -> [PodcastID: String] {
        if storedNames == nil { storedNames = try readModel.podcastNames() }
        var names = storedNames!
        for (id, state) in podcasts { names[id] = state.live?.name }
        return names
    }

    /// The live podcast whose name has `key` (``Rules/nameKey(_:)``), if any. Looked up, not searched:
    /// a script names a podcast in nearly every line.
    func podcast(nameKey key: String) throws -> PodcastID? {
        // The podcasts the batch loaded are as it left them: one may have taken the name, or given it up.
        for (id, state) in podcasts where state.live.map({ nameKey(of: $0.name) }) == key { return id }
        if storedNameKeys == nil {
            if storedNames == nil { storedNames = try readModel.podcastNames() }
            storedNameKeys = Dictionary(storedNames!.map { (Rules.nameKey($0.value), $0.key) }) { first, _ in first }
        }
        guard let stored = storedNameKeys![key], podcasts[stored] == nil else { return nil }
        return stored
    }

    private func storedHolder(of number: Int, in podcast: PodcastID) throws -> EpisodeID? {
        if let known = storedHolders[podcast]?[number] { return known }
        let holder = try readModel.episode(number: number, in: podcast)
        storedHolders[podcast, default: [:]].updateValue(holder, forKey: number)
        return holder
    }

    private func nameKey(of name: String) -> String {
        if let key = nameKeys[name] { return key }
        let key = Rules.nameKey(name)
        nameKeys[name] = key
        return key
    }

    /// The live episode of `podcast` numbered `number`, if any.
    func holder(of number: Int, in podcast: PodcastID) throws -> EpisodeID? {
        try holders(of: number, in: podcast).first
    }

    /// Every live episode of `podcast` numbered `number`: one at most, unless events applied outside the
    /// deciders (an undo's) broke the rule, which ``checkRules(after:)`` looks for.
    func holders(of number: Int, in podcast: PodcastID) throws -> [EpisodeID] {
        // A loaded episode is not where the read model says: it was renumbered or deleted since.
        let stored = try storedHolder(of: number, in: podcast).flatMap { episodes[$0] == nil ? $0 : nil }
        return numbers.holders(of: number, in: podcast) + (stored.map { [$0] } ?? [])
    }

    /// The live episode of `podcast` with the highest number, if any.
    func highestNumbered(in podcast: PodcastID) throws -> (number: Int, id: EpisodeID)? {
        // At most the podcast's loaded episodes are ahead of the first one the batch did not load.
        let stored = try readModel.highestNumbered(in: podcast, limit: numbers.loadedCount(in: podcast) + 1)
            .first { episodes[$0.id] == nil }
        let candidates = (numbers.highest(in: podcast).map { [$0] } ?? []) + (stored.map { [$0] } ?? [])
        return candidates.max { $0.number < $1.number }
    }

    /// Every live episode of `podcast`.
    func liveEpisodes(in podcast: PodcastID) throws -> [EpisodeID] {
        let stored = try readModel.episodeIDs(in: podcast).filter { episodes[$0] == nil }
        return stored + numbers.live(in: podcast)
    }

    // MARK: Telling

    /// The states of the podcasts and episodes `events` touch, before they are applied: what
    /// ``changes(of:from:)`` compares with, taken before the commit and read after it, so that telling
    /// costs nothing while a commit races a teammate's.
    func statesBefore(_ events: [DomainEvent]) throws -> TouchedStates {
        var states = TouchedStates()
        for event in events {
            switch event.aggregate {
            case .podcast(let id): if states.podcasts[id] == nil { states.podcasts[id] = try podcast(id) }
            case .episode(let id): if states.episodes[id] == nil { states.episodes[id] = try episode(id) }
            case .fonts, .log: break
            }
        }
        return states
    }

    /// What `events` changed in their entities, from the states `before` them: each touched entity
    /// folded alone, never a copy of the whole batch's states.
    func changes(of events: [DomainEvent], from before: TouchedStates) throws -> [HistoryEntry.Change] {
        var after = before
        for event in events {
            switch event.aggregate {
            case .podcast(let id): after.podcasts[id] = PodcastDecider.evolve(after.podcasts[id] ?? .initial, event)
            case .episode(let id): after.episodes[id] = EpisodeDecider.evolve(after.episodes[id] ?? .initial, event)
            case .fonts, .log: break
            }
        }
        return CommandChanges.of(
            events,
            before: ({ before.podcasts[$0] ?? .initial }, { before.episodes[$0] ?? .initial }),
            after: ({ after.podcasts[$0] ?? .initial }, { after.episodes[$0] ?? .initial })
        ) { id in
            after.podcasts[id]?.existing?.name ?? (try? self.podcastName(id)) ?? nil
        }
    }

    /// One podcast's name, deleted or not: as the batch has left it if its stream is loaded, else the
    /// read model's (read once for the batch), else its stream's. Never a copy of every name per call:
    /// this runs for every command of a script.
    private func podcastName(_ id: PodcastID) throws -> String? {
        if let state = podcasts[id] { return state.existing?.name }
        if storedNames == nil { storedNames = try readModel.podcastNames() }
        return try storedNames![id] ?? podcast(id).existing?.name
    }
}

/// The podcasts and episodes a command touches, as they were before it.
struct TouchedStates {
    var podcasts: [PodcastID: PodcastState] = [:]
    var episodes: [EpisodeID: EpisodeState] = [:]
}
