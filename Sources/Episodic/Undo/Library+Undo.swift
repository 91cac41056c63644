import CoreValues
import EventLog
import Foundation
import PodcastDomain
import Projections

extension Library {
    /// Undoes a command without rewriting history: appends, as one commit tagged `undoes`, the
    /// compensating events the domain's inverses give, computed from the state before each of the
    /// command's events. Undoing an undo is a redo.
    ///
    /// When later commands changed the same fields of the same entities, undo refuses and names them;
    /// with `force` it undoes only what is still in effect. The result must keep the rules (a restored
    /// episode's number free in its podcast, a restored name free), or nothing is appended.
    /// `dryRun` plans without appending.
    public func undo(
        _ target: UndoTarget, actor: String, force: Bool = false, dryRun: Bool = false,
        clock: () -> Timestamp = { Timestamp(Date())! }
    ) throws -> (plan: UndoPlan, outcome: SubmitOutcome?) {
        let model = try readModel()
        return try log.write { writer in
            try model.catchUp(with: log)
            let id = try resolve(target)
            let plan = try self.plan(undoing: id, force: force)
            let workspace = Workspace(log: log, readModel: model)
            let versions = try workspace.apply(plan.events)
            try workspace.checkRules(after: plan.events)
            guard !dryRun else { return (plan, nil) }
            let commandID = CommandID(UUID())
            let positions = try writer.append(Commit(
                events: plan.events.map(ProposedEvent.init(domain:)),
                expectations: versions.mapValues { $0 == 0 ? .noStream : .exactly($0) }, commandID: commandID,
                actor: actor, timestamp: clock(), undoes: id)).positions
            _ = try? model.catchUp(with: log)  // the next command catches up if this fails
            return (plan, SubmitOutcome(name: "undo", commandID: commandID, events: plan.events, positions: positions, created: nil))
        }
    }

    /// The command a target names.
    private func resolve(_ target: UndoTarget) throws -> CommandID {
        var commands: [(id: CommandID, actor: String, undoes: CommandID?)] = []
        try log.read { envelope in
            let id = envelope.commandID
            if commands.last?.id != id { commands.append((id, envelope.actor, envelope.undoes)) }
        }
        switch target {
        case .command(let id):
            guard commands.contains(where: { $0.id == id }) else { throw UndoError.noSuchCommand(id) }
            return id
        case .last(let actor):
            // Newest first: an undo still in effect cancels the command it undid.
            var cancelled = Set<CommandID>()
            for command in commands.reversed() where !cancelled.contains(command.id) {
                if let undone = command.undoes {
                    cancelled.insert(undone)
                } else if actor == nil || command.actor == actor {
                    return command.id
                }
            }
            throw UndoError.nothingToUndo(actor: actor)
        }
    }

    /// The compensating events of command `id`, checked for later changes to the same fields.
    private func plan(undoing id: CommandID, force: Bool) throws -> UndoPlan {
        var filter = LogFilter()
        filter.command = id
        var undone: [LoggedEvent] = []
        try readLog(filter) { undone.append($0) }
        guard let first = undone.first?.record.position, let last = undone.last?.record.position else {
            throw UndoError.noSuchCommand(id)
        }
        // Each stream the command touched: its events before the command, and after it.
        var earlier: [StreamID: [DomainEvent]] = [:]
        var later: [StreamID: [LoggedEvent]] = [:]
        for stream in Set(undone.map(\.record.stream)) {
            try log.read(stream: stream) { envelope in
                if envelope.position < first {
                    earlier[stream, default: []].append(try DomainEvents.decode(envelope))
                } else if envelope.position > last {
                    let event = try DomainEvents.decode(envelope)
                    later[stream, default: []].append(LoggedEvent(record: RecordedEvent(envelope), event: event, line: ""))
                }
            }
        }
        var conflicts: [Conflict] = []
        var kept: [(event: DomainEvent, before: [DomainEvent])] = []
        var folded = earlier
        for logged in undone {
            let stream = logged.record.stream
            let overlapping = (later[stream] ?? []).filter { logged.event.overlaps($0.event) }
            for other in overlapping {
                let mine = logged.event.changedFields, theirs = other.event.changedFields
                let fields = mine.contains(.existence) || theirs.contains(.existence)
                    ? [.existence] : mine.intersection(theirs).sorted { $0.rawValue < $1.rawValue }
                let conflict = Conflict(
                    commandID: other.record.commandID, actor: other.record.actor, time: other.record.timestamp,
                    stream: stream.rawValue, fields: fields)
                if !conflicts.contains(conflict) { conflicts.append(conflict) }
            }
            if overlapping.isEmpty { kept.append((logged.event, folded[stream] ?? [])) }
            folded[stream, default: []].append(logged.event)
        }
        if !conflicts.isEmpty && !force { throw UndoError.conflicts(id, conflicts) }
        guard !kept.isEmpty else { throw UndoError.allChangedSince(id) }
        let events = kept.reversed().flatMap { event, before -> [DomainEvent] in
            switch event.payload {
            case is any PodcastEventPayload: Inverses.of(event, before: PodcastDecider.fold(before))
            case is any EpisodeEventPayload: Inverses.of(event, before: EpisodeDecider.fold(before))
            case is any FontEventPayload: Inverses.of(event, before: FontLibrary.fold(before))
            default: []
            }
        }
        return UndoPlan(target: id, targetEvents: undone.map(\.record.type), events: events, skipped: force ? conflicts : [])
    }
}
