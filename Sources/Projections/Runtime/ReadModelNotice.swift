import CoreValues

/// Something a command should tell its user about the read models it answered from: they were not
/// what the log says and were rebuilt, or they could not be brought up to date.
public enum ReadModelNotice: Sendable, Equatable, CustomStringConvertible {
    /// The live read model was replaced by a replay of the log. `setAside` is where the old one was kept
    /// (a path in the library), when it was.
    case rebuilt(reason: String, setAside: String?)
    /// A read model that SQLite reports malformed was set aside (kept at `path`); the next command that
    /// needs the read models rebuilds them.
    case setAside(reason: String, path: String)
    /// The read models could not be brought up to date: answers are `events` events behind the log.
    case behind(events: UInt64, reason: String)
    /// The library's read models could not be used or made here: answers come from a replay of the log
    /// into a temporary folder outside the library, removed when the command ends. `remedy` is what
    /// would let the library's own read models be used again, when the user can do something.
    case temporary(reason: String, remedy: ReadModelRemedy? = nil)
    /// A shared library's server could not be reached: answers come from this machine's copy of the
    /// log, whose last event was written `asOf` (nil: the copy is empty).
    case offline(reason: String, asOf: Timestamp?)
    /// The password file was not read (`reason` says why: the group or others may read it, as libpq
    /// refuses too).
    case passwordFileIgnored(String)
    /// `log --follow` lost its shared library's server and has it again: it goes on after `position`,
    /// the last event it showed.
    case reconnected(resumingAfter: UInt64)

    /// A short name, for JSON.
    public var kind: String {
        switch self {
        case .rebuilt: "rebuilt"
        case .setAside: "setAside"
        case .behind: "behind"
        case .temporary: "temporary"
        case .offline: "offline"
        case .passwordFileIgnored: "passwordFile"
        case .reconnected: "reconnected"
        }
    }

    public var eventsBehind: UInt64? {
        if case .behind(let events, _) = self { return events }
        return nil
    }

    public var description: String {
        switch self {
        case let .rebuilt(reason, setAside):
            "the read models were rebuilt from the log: \(reason)."
                + (setAside.map { " The old read model was kept as \($0); delete it when you no longer need it." } ?? "")
        case let .offline(reason, asOf):
            "these answers come from this machine's copy of the shared library, "
                + (asOf.map { "whose last change is from \($0)" } ?? "which is empty")
                + ": \(reason)"
        case let .setAside(reason, path):
            "the read model was set aside as \(path): \(reason). The next command rebuilds it from the log."
        case let .behind(events, reason):
            "these answers are \(events) event\(events == 1 ? "" : "s") behind the log: the read models could not be "
                + "brought up to date (\(reason))."
        case .passwordFileIgnored(let reason):
            "the password file was not read, as libpq would not read it: \(reason)."
        case .reconnected(let position):
            "the connection to the shared library's server is back; going on after position \(position), the last event shown."
        case .temporary(let reason, _):
            "the library's read models cannot be used here (\(reason)); these answers come from a replay of the log "
                + "into a temporary folder."
        }
    }
}

/// What a user can do about read models that the log does not vouch for: the library names it, an app
/// or the CLI says how.
public enum ReadModelRemedy: Sendable, Equatable {
    /// A command that writes rebuilds the read models; a rebuild asked for now does it at once.
    case rebuild
    /// The log cannot be read to its end, and must be repaired (or restored) before the read models can
    /// be rebuilt.
    case repairLog
}

extension ReadModelNotice {
    /// What the user can do, when there is something.
    public var remedy: ReadModelRemedy? {
        if case .temporary(_, let remedy) = self { return remedy }
        return nil
    }
}
