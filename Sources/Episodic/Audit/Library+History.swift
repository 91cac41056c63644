import CoreValues
import EventCodec
import EventLog
import PodcastDomain

/// One command in the history of a podcast or an episode: who, when, and what changed from what to what.
public struct HistoryEntry: Sendable {
    public var commandID: CommandID
    public var actor: String
    public var time: Timestamp
    public var positions: ClosedRange<LogPosition>
    /// The command this one undid, if it was an undo.
    public var undoes: CommandID?
    public var changes: [Change]

    public struct Change: Sendable, Equatable {
        /// `podcast "Release Notes"`, `episode "Release Notes/3"`.
        public var entity: String
        /// An `EntityField`'s name, or `existence` for a creation, deletion or restoration.
        public var field: String
        /// Values as the audit commands write them (`"A title"`, `none`, `812 B (sha256 …)`); for `existence`,
        /// `none`, `live`, `deleted`, `created` or `restored`.
        public var before: String
        public var after: String
        /// An episode's title, for a sentence about its creation, deletion or restoration.
        public var title: String?
        /// For a field of several parts (thumbnail settings), the parts that changed, each from what
        /// to what; `before` and `after` then hold those parts alone.
        public var parts: [Part]

        public init(entity: String, field: String, before: String, after: String, title: String? = nil, parts: [Part] = []) {
            self.entity = entity
            self.field = field
            self.before = before
            self.after = after
            self.title = title
            self.parts = parts
        }

        /// One part of a field that changed: `size`, from `72 pt` to `96 pt`.
        public struct Part: Sendable, Equatable {
            public var name: String
            public var before: String
            public var after: String

            public init(name: String, before: String, after: String) {
                self.name = name
                self.before = before
                self.after = after
            }
        }
    }
}

extension Library {
    /// Every command that touched the podcast (itself or any episode created in it), oldest first.
    public func history(of podcast: PodcastID) throws -> [HistoryEntry] {
        var filter = LogFilter()
        filter.podcast = podcast
        return try history(filter)
    }

    /// Every command that touched the episode, oldest first.
    public func history(of episode: EpisodeID) throws -> [HistoryEntry] {
        var filter = LogFilter()
        filter.episode = episode
        return try history(filter)
    }

    private func history(_ filter: LogFilter) throws -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        var states = EntityStates(podcastName: podcastNamer())
        var group: [LoggedEvent] = []
        func close() {
            guard let first = group.first, let last = group.last else { return }
            entries.append(HistoryEntry(
                commandID: first.record.commandID, actor: first.record.actor, time: first.record.timestamp,
                positions: first.record.position...last.record.position, undoes: first.record.undoes,
                changes: states.apply(group.map(\.event))))
            group = []
        }
        try readLog(filter) { logged in
            // The events of one commit are contiguous in the log, and share their command id.
            if let current = group.first, current.record.commandID != logged.record.commandID { close() }
            group.append(logged)
        }
        close()
        return entries
    }

    /// A podcast's name as its stream has it (deleted or not), each read once: for naming an episode
    /// as people do, `"Show/3"`, when its podcast's stream is not among those folded, and a podcast in
    /// a log line. The function keeps what it read; use it for one listing.
    public func podcastNamer() -> (PodcastID) -> String? {
        namer { id, events in PodcastDecider.fold(events).existing?.name }
    }

    /// An episode's name as people say it, `"Show/3"`: its podcast's name (``podcastNamer()``) and its
    /// number, as their streams have them now (deleted or not), each stream read once; nil for an
    /// episode whose stream cannot be read. Use it for one listing.
    public func episodeNamer(podcastName: @escaping (PodcastID) -> String?) -> (EpisodeID) -> String? {
        namer { id, events in
            EpisodeDecider.fold(events).existing.flatMap { episode in podcastName(episode.podcastID).map { "\($0)/\(episode.number)" } }
        }
    }

    /// A name for each entity from the events of its stream, each stream read once; nil for one whose
    /// stream cannot be read.
    private func namer<Kind>(_ name: @escaping (Identifier<Kind>, [DomainEvent]) -> String?) -> (Identifier<Kind>) -> String? {
        let store = self.store
        var names: [Identifier<Kind>: String?] = [:]
        return { id in
            if let known = names[id] { return known }
            var events: [DomainEvent] = []
            let found = try? store.read(stream: StreamID(domain: id.streamName)) { events.append(try DomainEvents.decode($0)) }
            let named = found == nil ? nil : name(id, events)
            names[id] = named
            return named
        }
    }
}

/// The states of the entities a history has met, and what each command changed in them.
struct EntityStates {
    var library = LibraryState()
    /// A podcast's name when its stream is not folded here.
    let podcastName: (PodcastID) -> String?

    init(podcastName: @escaping (PodcastID) -> String?) {
        self.podcastName = podcastName
    }

    /// The podcast or episode as people name it (see ``CommandChanges/episodeLabel(_:podcastName:)``).
    func label(of aggregate: AggregateKey) -> String {
        switch aggregate {
        case .podcast(let id): CommandChanges.podcastLabel(library.podcast(id).existing?.name)
        case .episode(let id):
            library.episode(id).existing.map { episode in
                CommandChanges.episodeLabel(episode) { library.podcast($0).existing?.name ?? podcastName($0) }
            } ?? "episode \(id)"
        case .fonts: "the fonts"
        case .log: "the log"
        }
    }

    /// The fields of the podcast or episode whose values differ between these states and `other`'s,
    /// with `existence` when it is live in one and not the other; empty for the fonts.
    func fieldsDiffering(_ aggregate: AggregateKey, from other: EntityStates) -> Set<EntityField> {
        func differing<Value>(_ a: EntityState<Value>, _ b: EntityState<Value>, _ fields: [EntityFieldReader<Value>]) -> Set<EntityField> {
            var differ = Set<EntityField>()
            if (a.live == nil) != (b.live == nil) { differ.insert(.existence) }
            guard let left = a.existing, let right = b.existing else {
                return a.existing == nil && b.existing == nil ? differ : differ.union(EntityField.allCases)
            }
            for reader in fields where reader.differs(left, right) { differ.insert(reader.field) }
            return differ
        }
        switch aggregate {
        case .podcast(let id): return differing(library.podcast(id), other.library.podcast(id), EntityFields.podcast)
        case .episode(let id): return differing(library.episode(id), other.library.episode(id), EntityFields.episode)
        case .fonts, .log: return []
        }
    }

    /// Folds events in, saying nothing of them: the states before the command to describe.
    mutating func fold(_ events: some Sequence<DomainEvent>) {
        for event in events { library.evolve(event) }
    }

    /// Folds one command's events in; returns what changed, entity by entity, in the order the events
    /// met them.
    mutating func apply(_ events: [DomainEvent]) -> [HistoryEntry.Change] {
        let before = library
        for event in events { library.evolve(event) }
        let after = library
        return CommandChanges.of(events, before: (before.podcast, before.episode), after: (after.podcast, after.episode)) { id in
            after.podcast(id).existing?.name ?? podcastName(id)
        }
    }
}

/// What a command changed, field by field, from the states of its entities before and after it.
enum CommandChanges {
    /// The states of an aggregate, by key.
    typealias States = (podcast: (PodcastID) -> PodcastState, episode: (EpisodeID) -> EpisodeState)

    /// The changes `events` made, entity by entity in the order the events met them; an episode is
    /// named `"Podcast/number"` with `podcastName`.
    static func of(
        _ events: [DomainEvent], before: States, after: States, podcastName: (PodcastID) -> String?
    ) -> [HistoryEntry.Change] {
        var order: [AggregateKey] = []
        for event in events where !order.contains(event.aggregate) { order.append(event.aggregate) }
        return order.flatMap { aggregate -> [HistoryEntry.Change] in
            switch aggregate {
            case .podcast(let id):
                let (before, after) = (before.podcast(id), after.podcast(id))
                return changes(podcastLabel((after.existing ?? before.existing)?.name), nil, before, after, fields: EntityFields.podcast)
            case .episode(let id):
                let (before, after) = (before.episode(id), after.episode(id))
                guard let shown = after.existing ?? before.existing else { return [] }
                return changes(episodeLabel(shown, podcastName: podcastName), shown.title, before, after, fields: EntityFields.episode)
            case .fonts:
                return events.compactMap { event in
                    switch event {
                    case .fontImported(let e):
                        HistoryEntry.Change(entity: "font " + FieldText.text(e.name), field: "existence", before: "none", after: "created")
                    case .fontRemoved(let e):
                        HistoryEntry.Change(entity: "font " + FieldText.text(e.name), field: "existence", before: "live", after: "deleted")
                    default: nil
                    }
                }
            case .log:
                return events.compactMap { event in
                    guard case .lossAccepted(let e) = event else { return nil }
                    return HistoryEntry.Change(entity: "the log", field: "loss accepted", before: FieldText.loss(e), after: "accepted")
                }
            }
        }
    }

    /// `podcast "Show"`.
    static func podcastLabel(_ name: String?) -> String { "podcast " + FieldText.text(name) }

    /// `episode "Show/3"`, as `<podcast>/<number>` names it.
    static func episodeLabel(_ episode: Episode, podcastName: (PodcastID) -> String?) -> String {
        "episode \"\(podcastName(episode.podcastID) ?? episode.podcastID.description)/\(episode.number)\""
    }

    private static func changes<Value>(
        _ label: String, _ title: String?, _ before: EntityState<Value>, _ after: EntityState<Value>,
        fields: [EntityFieldReader<Value>]
    ) -> [HistoryEntry.Change] {
        func existence(_ before: String, _ after: String) -> HistoryEntry.Change {
            HistoryEntry.Change(entity: label, field: "existence", before: before, after: after, title: title)
        }
        switch (before, after) {
        case (.active(let old), .active(let new)):
            return fields.filter { $0.differs(old, new) }.map { reader in
                let parts = reader.parts?(old, new) ?? []
                guard !parts.isEmpty else {
                    return HistoryEntry.Change(entity: label, field: reader.field.rawValue, before: reader.text(old), after: reader.text(new))
                }
                return HistoryEntry.Change(
                    entity: label, field: reader.field.rawValue, before: parts.map { "\($0.name) \($0.before)" }.joined(separator: "; "),
                    after: parts.map { "\($0.name) \($0.after)" }.joined(separator: "; "), parts: parts)
            }
        case (.active, .deleted):
            return [existence("live", "deleted")]
        case (.deleted, .active):
            return [existence("deleted", "restored")]
        case (.initial, .active(let new)):
            return [existence("none", "created")]
                + fields.prefix(2).map { HistoryEntry.Change(entity: label, field: $0.field.rawValue, before: "none", after: $0.text(new)) }
        default:
            return []
        }
    }
}
