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
}

/// A later command that changed what the undone command changed.
public struct Conflict: Sendable, Equatable, CustomStringConvertible {
    public var commandID: CommandID
    public var actor: String
    public var time: Timestamp
    /// The entity and the fields both commands changed.
    public var stream: String
    public var fields: [EntityField]

    public var description: String {
        "command \(commandID) by \(actor) at \(time.text) changed \(fields.map(\.rawValue).joined(separator: ", ")) of \(stream)"
    }
}

/// Which command to undo.
public enum UndoTarget: Sendable {
    case command(CommandID)
    /// The newest command still in effect (not an undo, not undone), by `actor` if given.
    case last(actor: String?)
}

/// Why a command cannot be undone.
public enum UndoError: Error, Sendable, CustomStringConvertible {
    case noSuchCommand(CommandID)
    case nothingToUndo(actor: String?)
    case conflicts(CommandID, [Conflict])
    case allChangedSince(CommandID)
    case breaksRule(String)

    /// The first line of ``conflicts(_:_:)``'s message, for a printer that lays out the conflicts
    /// (which quote actors) itself.
    public static func conflictsHeadline(_ id: CommandID) -> String {
        "later commands changed what \(id) changed, so undoing it would overwrite them:"
    }

    public var description: String {
        switch self {
        case .noSuchCommand(let id):
            "no command \(id) in the log."
        case .nothingToUndo(let actor):
            "there is no command" + (actor.map { " by \($0)" } ?? "") + " left to undo."
        case let .conflicts(id, conflicts):
            Self.conflictsHeadline(id) + "\n" + conflicts.map { "  - \($0)" }.joined(separator: "\n")
                + "\nUndo those first, or undo with force, which undoes only what is still in effect."
        case .allChangedSince(let id):
            "everything \(id) changed was changed again since; there is nothing left to undo."
        case .breaksRule(let reason):
            "undoing it would break a rule: \(reason)"
        }
    }
}

extension UndoError: ClassifiedError {
    public var kind: ErrorKind { .refused }
}
