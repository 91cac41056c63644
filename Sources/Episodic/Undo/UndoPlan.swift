import CoreValues
import EventLog
import PodcastDomain

/// What undoing a command comes to: the compensating events, and what was left as it is.
public struct UndoPlan: Sendable {
    /// The command undone.
    public var target: CommandID
    /// Its name for people: the types of its events.
    public var targetEvents: [String]
    /// The events that undo it, in the order they will be appended.
    public var events: [DomainEvent]
    /// With `force`: what the command did that later commands changed again, left as they made it.
    public var skipped: [Conflict]
    /// The command whose effect goes (an undo) or comes back (a redo: the command the redone undo
    /// undid), with what it changed, for saying in words what happened.
    public var described: HistoryEntry
    /// Whether the command undone is a redo: its undo takes away again what the redo brought back.
    public var targetIsRedo: Bool
}

/// A later command that changed what the undone command changed.
public struct Conflict: Sendable, Equatable, CustomStringConvertible {
    public var commandID: CommandID
    public var actor: String
    public var time: Timestamp
    /// The entity's stream, and the entity as people name it (`episode "Show/3"`).
    public var stream: String
    public var entity: String
    /// The fields both commands changed.
    public var fields: [EntityField]

    public var description: String { sentence(at: time.text) }

    /// The conflict in words, its time written as `time` says it (a front end's local time).
    public func sentence(at time: String) -> String {
        "command \(commandID.description.prefix(8)) by \(actor) at \(time) changed \(fields.map(\.rawValue).joined(separator: ", ")) of \(entity)"
    }
}

/// Which command to undo.
public enum UndoTarget: Sendable {
    case command(CommandID)
    /// The newest change still in effect, by `actor` if given: a command not undone, or a redo (an undo
    /// still in effect is walked past, with the command it undid, so that undo after undo walks back).
    case last(actor: String?)
    /// An undo to take back, re-applying what it undid: by default the newest one since the last
    /// change (an editor's redo, which new work forgets), walking forward through earlier undos one
    /// redo at a time. An undo named by its id may reach past later changes only with `force`.
    case redo(undo: CommandID? = nil)
}

/// Why a command cannot be undone.
public enum UndoError: Error, Sendable, CustomStringConvertible {
    case nothingToUndo(actor: String?)
    /// No undo is in effect: nothing was undone, or every undo was redone.
    case nothingToRedo
    /// Changes were made since this undo, the newest one in effect: redo would reach past them.
    case redoPastNewWork(undo: CommandID)
    /// Redo takes back an undo, and this command is not one (or is a redo already).
    case notAnUndo(CommandID)
    case conflicts(CommandID, [Conflict])
    case allChangedSince(CommandID)
    case breaksRule(String)
    /// The command is the log's own (an accepted loss): what it records cannot be taken back.
    case logRecord(CommandID)

    /// The first line of ``conflicts(_:_:)``'s message, for a printer that lays out the conflicts
    /// (which quote actors) itself.
    public static func conflictsHeadline(_ id: CommandID) -> String {
        "later commands changed what \(id.description.prefix(8)) changed, so undoing it would overwrite them:"
    }

    public var description: String {
        switch self {
        case .nothingToRedo:
            "there is no undo left to redo."
        case .redoPastNewWork(let undo):
            "changes were made after undo \(undo.description.prefix(8)), so there is nothing to redo: as in an editor, only "
                + "undos made since the last change can be redone."
        case .notAnUndo(let id):
            "\(id.description.prefix(8)) is not an undo, so there is nothing in it to redo."
        case .nothingToUndo(let actor):
            "there is no command" + (actor.map { " by \($0)" } ?? "") + " left to undo."
        case let .conflicts(id, conflicts):
            Self.conflictsHeadline(id) + "\n" + conflicts.map { "  - \($0)" }.joined(separator: "\n")
                + "\nUndo those first, or undo with force, which undoes only what is still in effect."
        case .allChangedSince(let id):
            "everything \(id) changed was changed again since; there is nothing left to undo."
        case .breaksRule(let reason):
            "undoing it would break a rule: \(reason)"
        case .logRecord(let id):
            "\(id.description.prefix(8)) is the log's own record of a loss accepted, which cannot be undone: what was lost is "
                + "not in the log to bring back. Restore a backup to have it again."
        }
    }
}

extension UndoError: ClassifiedError {
    public var kind: ErrorKind { .refused }
}
