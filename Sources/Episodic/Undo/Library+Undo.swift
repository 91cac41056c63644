import CoreValues
import EventCodec
import EventLog
import Foundation
import PodcastDomain
import Projections

extension Library {
    /// Undoes a command without rewriting history: appends, as one commit tagged `undoes`, the
    /// compensating events the domain's inverses give, computed from the state before each of the
    /// command's events. Undoing an undo is a redo. It takes the write path submit takes
    /// (<doc:TheWritePath>), with the same errors.
    ///
    /// When later commands changed the same fields of the same entities, undo refuses and names them;
    /// with `force` it undoes only what is still in effect. The result must keep the rules (a restored
    /// episode's number free in its podcast, a restored name free), or nothing is appended.
    /// `dryRun` plans without appending. `readModelError` is set, as in ``SubmitReport``, when the undo
    /// was appended but the read models could not be brought up to date; the next command or query
    /// catches them up.
    public func undo(
        _ target: UndoTarget, actor: String, force: Bool = false, dryRun: Bool = false,
        clock: () -> Timestamp = { .now }
    ) throws -> (plan: UndoPlan, outcome: SubmitOutcome?, readModelError: (any Error)?) {
        let ((plan, outcome), readModelError) = try runWritePath { writer, workspace -> (UndoPlan, SubmitOutcome?) in
            let resolved = try resolve(target, force: force)
            let plan = try self.plan(
                undoing: resolved.command, bringingBack: resolved.bringsBack, targetIsRedo: resolved.isRedo, force: force)
            var commit = PendingCommit(commandID: CommandID(UUID()), undoes: resolved.command.id)
            _ = commit.add(plan.events, blobs: [], versionsBefore: try workspace.apply(plan.events))
            try workspace.checkRules(after: plan.events)
            guard !dryRun else { return (plan, nil) }
            let positions = try commit.append(to: writer, actor: actor, at: clock(), read: workspace.versions)
            let name = resolved.bringsBack == nil ? "undo" : "redo"
            return (plan, SubmitOutcome(name: name, commandID: commit.commandID, events: plan.events, positions: positions, created: nil))
        }
        return (plan, outcome, readModelError)
    }

    /// Events read at a time, from the head backward, when looking for a command.
    static let commandSearchStretch: UInt64 = 4_096

    /// The command a target names; for a redo, the command whose effect it brings back; and whether
    /// the command is a redo (whose undo takes its effect away again). Undo nearly always aims at a
    /// recent command, so the log is read from the head backward, a stretch at a time: the cost follows
    /// how far back the command is.
    private func resolve(_ target: UndoTarget, force: Bool) throws -> (command: CommandSpan, bringsBack: CommandSpan?, isRedo: Bool) {
        var depths: [CommandID: Int] = [:]
        switch target {
        case .command(let id):
            let span = try command(id)
            return (span, nil, try undoDepth(of: span, known: &depths).isRedo)
        case .last(let actor):
            // An undo still in effect cancels the command it undid; a redo in effect is a change like any other.
            var cancelled = Set<CommandID>()
            let span = try newestFirst { span in
                guard !cancelled.contains(span.id) else { return false }
                let mine = actor == nil || span.actor == actor
                if let undone = span.undoes {
                    if mine, try undoDepth(of: span, known: &depths).isRedo { return true }
                    cancelled.insert(undone)
                    return false
                }
                return mine
            }
            guard let span else { throw UndoError.nothingToUndo(actor: actor) }
            return (span, nil, span.undoes != nil)
        case .redo(let id):
            let stack = try redoStack(known: &depths)
            let undo: CommandSpan
            if let id {
                undo = try command(id)
                guard undo.undoes != nil, try !undoDepth(of: undo, known: &depths).isRedo else { throw UndoError.notAnUndo(id) }
                guard force || stack.contains(undo) else { throw UndoError.redoPastNewWork(undo: id) }
            } else if let newest = stack.last {
                undo = newest
            } else if let stale = try newestUndoInEffect() {
                throw UndoError.redoPastNewWork(undo: stale.id)
            } else {
                throw UndoError.nothingToRedo
            }
            return (undo, try command(undo.undoes!), false)
        }
    }

    /// The command whose id is `id`, read back from the head.
    private func command(_ id: CommandID) throws -> CommandSpan {
        guard let span = try newestFirst(until: { $0.id == id }) else { throw LibraryError.commandNotFound(id.description) }
        return span
    }

    /// How many undos deep `span` is: 0 for a change, 1 for an undo of it, 2 for a redo (an undo of that
    /// undo), and so on; an odd depth takes a change away, an even one brings it back. `known` keeps
    /// the depths found, so that a walk asks for each command once.
    private func undoDepth(of span: CommandSpan, known: inout [CommandID: Int]) throws -> UndoDepth {
        // The command, what it undid, what that undid...: down to a change, a command whose depth is
        // known, or one the log does not hold.
        var chain: [CommandSpan] = []
        var below: Int?
        var next: CommandSpan? = span
        while let command = next {
            if let depth = known[command.id] {
                below = depth
                break
            }
            chain.append(command)
            guard let target = command.undoes else { break }
            next = try newestFirst(until: { $0.id == target })
        }
        var depth = below.map { $0 + 1 } ?? (chain.last?.undoes == nil ? 0 : 1)
        for command in chain.reversed() {
            known[command.id] = depth
            depth += 1
        }
        return UndoDepth(known[span.id] ?? 0)
    }

    /// The undos a redo may bring back, newest last: an editor's redo stack. New work empties it, so
    /// only the undo commits since the log's newest change count. Taken oldest first, an undo (of a
    /// change, or of a redo) goes onto the stack, and a redo takes the undo it redid off it.
    private func redoStack(known: inout [CommandID: Int]) throws -> [CommandSpan] {
        var sinceNewWork: [CommandSpan] = []
        _ = try newestFirst { span in
            guard span.undoes != nil else { return true }
            sinceNewWork.append(span)
            return false
        }
        var stack: [CommandSpan] = []
        for span in sinceNewWork.reversed() {
            if let redone = stack.lastIndex(where: { $0.id == span.undoes }) {
                stack.remove(at: redone)
            } else if try !undoDepth(of: span, known: &known).isRedo {
                stack.append(span)
            }
        }
        return stack
    }

    /// The newest undo still in effect, however much work came after it (for saying why redo refuses);
    /// nil when there is none. An undo in effect that undid an undo is a redo already done: it is walked
    /// past, as is the undo it cancelled. Whether an undo undid an undo is known only on reaching the
    /// command it names.
    private func newestUndoInEffect() throws -> CommandSpan? {
        var cancelled = Set<CommandID>()
        // Undos in effect, newest first, each with whether it undid an undo once that is known.
        var pending: [(undo: CommandSpan, undidAnUndo: Bool?)] = []
        var found: CommandSpan?
        _ = try newestFirst { span in
            for index in pending.indices where pending[index].undo.undoes == span.id {
                pending[index].undidAnUndo = span.undoes != nil
                if span.undoes == nil, pending[..<index].allSatisfy({ $0.undidAnUndo == true }) {
                    found = pending[index].undo
                    return true
                }
            }
            if !cancelled.contains(span.id), let undone = span.undoes {
                cancelled.insert(undone)
                pending.append((span, nil))
            }
            return false
        }
        return found
    }

    /// The first command, newest first, that `found` accepts; each is whole when it is asked about,
    /// though the log is read `stretch` events at a time.
    func newestFirst(
        stretch: UInt64 = Library.commandSearchStretch, until found: (CommandSpan) throws -> Bool
    ) throws -> CommandSpan? {
        var end = log.head
        // The oldest command of the stretch read last: it may have begun in the stretch before.
        var unfinished: CommandSpan?
        while end > .none {
            let start = LogPosition(end.rawValue > stretch ? end.rawValue - stretch + 1 : 1)
            var spans: [CommandSpan] = []
            try store.read(from: start, through: end) { envelope in
                let id = envelope.commandID
                if spans.last?.id == id {
                    spans[spans.count - 1].positions = spans[spans.count - 1].positions.lowerBound...envelope.position
                } else {
                    spans.append(CommandSpan(id: id, actor: envelope.actor, undoes: envelope.undoes, positions: envelope.position...envelope.position))
                }
            }
            if let later = unfinished {
                if spans.last?.id == later.id {
                    spans[spans.count - 1].positions = spans[spans.count - 1].positions.lowerBound...later.positions.upperBound
                } else {
                    spans.append(later)
                }
            }
            unfinished = start > LogPosition(1) && !spans.isEmpty ? spans.removeFirst() : nil
            for span in spans.reversed() where try found(span) { return span }
            end = LogPosition(start.rawValue - 1)
        }
        return nil
    }

    /// The compensating events of `command`, checked for later changes to the same fields. For a redo,
    /// `original` is the command whose effect comes back; `targetIsRedo` is told in the plan.
    private func plan(
        undoing command: CommandSpan, bringingBack original: CommandSpan?, targetIsRedo: Bool, force: Bool
    ) throws -> UndoPlan {
        let id = command.id
        var filter = LogFilter()
        filter.command = id
        filter.since = .position(command.positions.lowerBound)
        filter.until = .position(command.positions.upperBound)
        var undone: [LoggedEvent] = []
        try readLog(filter, from: filter.start) { undone.append($0) }
        guard let first = undone.first?.record.position, let last = undone.last?.record.position else {
            throw LibraryError.commandNotFound(id.description)
        }
        // Each stream the command touched: its events before the command, and after it.
        if undone.contains(where: { $0.event.aggregate == .log }) { throw UndoError.logRecord(id) }
        var earlier: [StreamID: [DomainEvent]] = [:]
        var later: [StreamID: [LoggedEvent]] = [:]
        for stream in Set(undone.map(\.record.stream)) {
            try store.read(stream: stream) { envelope in
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
        // Each stream before the command, as the command left it (with what it changed), and as it is now.
        var states = EntityStates(podcastName: podcastNamer())
        states.fold(earlier.values.joined())
        let changesMade = states.apply(undone.map(\.event))
        var statesNow = states
        statesNow.fold(later.values.joined().map(\.event))
        for logged in undone {
            let stream = logged.record.stream
            let aggregate = logged.event.aggregate
            // Later commands stand in the way only where they left the entity other than this command
            // left it: a command and its undo since, or a deletion and its undo, overwrite nothing.
            let changedSince = states.fieldsDiffering(aggregate, from: statesNow)
            let stake = logged.event.changedFields.contains(.existence) ? changedSince : logged.event.changedFields.union([.existence])
            let overlapping = aggregate == .fonts || !changedSince.isDisjoint(with: stake)
                ? (later[stream] ?? []).filter { logged.event.overlaps($0.event) } : []
            for other in overlapping {
                let mine = logged.event.changedFields, theirs = other.event.changedFields
                let fields = mine.contains(.existence) || theirs.contains(.existence)
                    ? [.existence] : mine.intersection(theirs).sorted { $0.rawValue < $1.rawValue }
                let conflict = Conflict(
                    commandID: other.record.commandID, actor: other.record.actor, time: other.record.timestamp,
                    stream: stream.rawValue, entity: statesNow.label(of: aggregate), fields: fields)
                if !conflicts.contains(conflict) { conflicts.append(conflict) }
            }
            if overlapping.isEmpty { kept.append((logged.event, folded[stream] ?? [])) }
            folded[stream, default: []].append(logged.event)
        }
        if !conflicts.isEmpty && !force { throw UndoError.conflicts(id, conflicts) }
        guard !kept.isEmpty else { throw UndoError.allChangedSince(id) }
        let events = kept.reversed().flatMap { event, before -> [DomainEvent] in
            switch event.aggregate {
            case .podcast: Inverses.of(event, before: PodcastDecider.fold(before))
            case .episode: Inverses.of(event, before: EpisodeDecider.fold(before))
            case .fonts: Inverses.of(event, before: FontDecider.fold(before))
            case .log: []
            }
        }
        let described: HistoryEntry
        if let original {
            // What the redo does now, told as the command it brings back.
            var redone = statesNow
            described = HistoryEntry(
                commandID: original.id, actor: original.actor, time: try firstEvent(of: original).timestamp,
                positions: original.positions, undoes: nil, changes: redone.apply(events))
        } else {
            described = HistoryEntry(
                commandID: id, actor: command.actor, time: undone[0].record.timestamp, positions: command.positions,
                undoes: command.undoes, changes: changesMade)
        }
        return UndoPlan(
            target: id, targetEvents: undone.map(\.record.type), events: events, skipped: force ? conflicts : [], described: described,
            targetIsRedo: targetIsRedo)
    }
}

/// A command as the log holds it: one commit, so its events are the positions `positions`.
struct CommandSpan: Equatable {
    let id: CommandID
    let actor: String
    let undoes: CommandID?
    var positions: ClosedRange<LogPosition>
}

/// How many undos deep a command is: 0 for a change, 1 for its undo, 2 for a redo, and so on.
struct UndoDepth {
    let value: Int
    init(_ value: Int) { self.value = value }
    /// Whether the command brings back what an undo took away: an even depth above 0.
    var isRedo: Bool { value > 0 && value.isMultiple(of: 2) }
}
