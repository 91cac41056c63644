import CoreValues
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
        /// `podcast "Release Notes"`, `episode #3 "Event logs"`.
        public var entity: String
        /// An `EntityField`'s name, or `existence` for a creation, deletion or restoration.
        public var field: String
        public var before: String
        public var after: String

        public init(entity: String, field: String, before: String, after: String) {
            self.entity = entity
            self.field = field
            self.before = before
            self.after = after
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
        var states = EntityStates()
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
}

/// The states of the entities a history has met, and what each command changed in them.
private struct EntityStates {
    var library = LibraryState()

    /// Folds one command's events in; returns what changed, entity by entity, in the order the events
    /// met them.
    mutating func apply(_ events: [DomainEvent]) -> [HistoryEntry.Change] {
        var order: [AggregateKey] = []
        let before = library
        for event in events {
            if !order.contains(event.aggregate) { order.append(event.aggregate) }
            library.evolve(event)
        }
        return order.flatMap { aggregate -> [HistoryEntry.Change] in
            switch aggregate {
            case .podcast(let id):
                let (before, after) = (before.podcast(id), library.podcast(id))
                let label = "podcast " + FieldText.text((after.existing ?? before.existing)?.name)
                return Self.changes(label, before, after, fields: EntityFields.of)
            case .episode(let id):
                let (before, after) = (before.episode(id), library.episode(id))
                let shown = after.existing ?? before.existing
                let label = "episode #\(shown?.number ?? 0) " + FieldText.text(shown?.title)
                return Self.changes(label, before, after, fields: EntityFields.of)
            case .fonts:
                return []
            }
        }
    }

    private static func changes<Value>(
        _ label: String, _ before: EntityState<Value>, _ after: EntityState<Value>, fields: (Value) -> [(EntityField, String)]
    ) -> [HistoryEntry.Change] {
        switch (before, after) {
        case (.active(let old), .active(let new)):
            return zip(fields(old), fields(new)).compactMap { old, new in
                old.1 == new.1 ? nil : HistoryEntry.Change(entity: label, field: old.0.rawValue, before: old.1, after: new.1)
            }
        case (.active, .deleted):
            return [HistoryEntry.Change(entity: label, field: "existence", before: "live", after: "deleted")]
        case (.deleted, .active):
            return [HistoryEntry.Change(entity: label, field: "existence", before: "deleted", after: "restored")]
        case (.initial, .active(let new)):
            return [HistoryEntry.Change(entity: label, field: "existence", before: "none", after: "created")]
                + fields(new).prefix(2).map { HistoryEntry.Change(entity: label, field: $0.0.rawValue, before: "none", after: $0.1) }
        default:
            return []
        }
    }
}
