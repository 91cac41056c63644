import CoreValues
import EventLog

/// What can go wrong between a machine and its shared library's server. Each case has one kind.
public enum SharedLogError: Error, Equatable, Sendable, ClassifiedError, CustomStringConvertible {
    /// The server did not answer (down, unreachable, silent past the deadline). Nothing was written;
    /// the same command works once it answers.
    case unreachable(server: String, reason: String)
    /// The connection was lost, or the server went silent, while it was taking a change: it may have
    /// been written. The next command's catch-up copies it if it was.
    case outcomeUnknown(server: String, reason: String)
    /// The server answered that it cannot serve now (starting up, shutting down, recovering, too many
    /// clients, a standby that takes no writes): nothing was written; try again later.
    case notNow(server: String, reason: String)
    /// Another machine held the shared log's head longer than the lock timeout.
    case lockTimedOut(server: String, waited: String)
    /// The server did not accept the login (a wrong or missing password) or the role's rights.
    case denied(server: String, reason: String)
    /// The server answered and said no, for another reason (a database that does not exist).
    case serverRefused(server: String, reason: String)
    /// A statement failed on the server with SQLSTATE `state`: what the server said, in its words.
    /// Callers that expect a state (a refusal of the append) turn it into their own error first.
    case statementFailed(server: String, state: String, message: String)
    /// The schema holds no shared library.
    case noSharedLibrary(server: String, schema: String)
    /// The schema already holds a log, and a new library or a push needs an empty one.
    case schemaNotEmpty(server: String, schema: String, events: UInt64)
    /// The schema holds another library than this folder's.
    case otherLibrary(schema: String, expected: LibraryID, found: LibraryID)
    /// The server's log ends before this machine's copy: it was restored to an earlier point.
    case serverBehind(server: LogPosition, local: LogPosition)
    /// The event at `position` on the server is not the one this machine copied: the log was replaced.
    case logReplaced(position: LogPosition)
    /// The server handed out events that do not continue the log (a hole, a stream out of step).
    case outOfStep(position: LogPosition, reason: String)
    /// The server's commit at `position` does not continue the hash chain: a row was changed, removed,
    /// inserted or moved on the server after it was written. Nothing from it on was copied.
    case chainBroken(position: LogPosition, reason: String)
    /// What the server holds at `position`, which this machine's copy holds too, is not what the copy
    /// holds: the server's row was changed, removed or moved since this machine copied it.
    case serverChanged(position: LogPosition, reason: String)
    /// The server holds rows past its head, from `position` on, which no append wrote: every append
    /// is refused until they are set aside.
    case rowsPastHead(position: LogPosition)
    /// The digests the server keeps of its rows are no longer made by PostgreSQL from the rows (a
    /// generated column or its function was changed): the server's rows can no longer be checked cheaply.
    case digestsAltered(schema: String, what: String)
    /// The server's schema is older than this build's and this role may not upgrade it.
    case olderSchema(schema: String, found: Int, needed: Int)
    /// What the server holds for the log after a push is not what the library holds.
    case pushMismatch(local: String, server: String)
    /// The server has no blob with this hash, which an event refers to.
    case blobMissing(sha256: String)

    public var kind: ErrorKind {
        switch self {
        case .unreachable, .outcomeUnknown, .notNow, .lockTimedOut: .busy
        case .denied: .denied
        case .serverRefused, .olderSchema: .failure
        case .statementFailed(_, let state, _): Self.kind(ofState: state)
        case .noSharedLibrary: .missing
        case .schemaNotEmpty, .otherLibrary: .refused
        case .serverBehind, .logReplaced, .outOfStep, .pushMismatch, .blobMissing, .chainBroken, .serverChanged, .rowsPastHead, .digestsAltered: .damaged
        }
    }

    /// Whether the server, as it stands, cannot keep this machine's copy current, though the copy itself
    /// is sound: reads then answer from the copy, saying why, and writes are refused with this error.
    /// Not for a server that hands out damage (a broken chain), which every command reports.
    public var leavesCopyUsable: Bool {
        switch self {
        case .unreachable, .outcomeUnknown, .notNow, .lockTimedOut, .denied, .serverRefused, .olderSchema, .serverBehind, .logReplaced:
            true
        case .statementFailed: kind != .damaged
        default: false
        }
    }

    /// What went wrong, without what to do about it: for a notice beside answers that still come.
    public var briefly: String {
        switch self {
        case let .unreachable(server, reason): "the server at \(server) cannot be reached (\(reason))"
        case let .notNow(server, reason): "the server at \(server) cannot serve now (\(reason))"
        case let .serverBehind(server, local):
            "the server's log ends at position \(server), before this machine's copy (\(local)): it was restored to an earlier point"
        case let .logReplaced(position):
            "the server's event at position \(position) is not the one this machine copied: the server's log was replaced"
        case let .olderSchema(schema, found, needed):
            "the shared library in schema \(schema) is at version \(found), older than this build needs (\(needed)), "
                + "and this role may not upgrade it"
        default: description
        }
    }

    public var description: String {
        switch self {
        case let .unreachable(server, reason):
            "the shared library's server at \(server) cannot be reached (\(reason)). Nothing was written; try again "
                + "once it answers."
        case let .outcomeUnknown(server, reason):
            "the connection to the shared library's server at \(server) was lost while it was taking the change "
                + "(\(reason)): it may have been written. Look at the log to see whether it was, and run the "
                + "command again only if it was not."
        case let .notNow(server, reason):
            "the shared library's server at \(server) cannot serve now (\(reason)). Nothing was written; try again "
                + "in a moment."
        case let .lockTimedOut(server, waited):
            "another machine held the shared library at \(server) for longer than the lock timeout (\(waited)). "
                + "Nothing was written; try again, or wait longer for the lock."
        case let .denied(server, reason):
            "the server at \(server) did not accept this: \(reason). Nothing was written."
        case let .serverRefused(server, reason):
            "the server at \(server) refused the connection: \(reason)."
        case let .statementFailed(server, _, message):
            "the server at \(server) said: \(message)."
        case let .noSharedLibrary(server, schema):
            "there is no shared library in schema \(schema) at \(server). Check the schema's name, or create a "
                + "shared library there."
        case let .schemaNotEmpty(server, schema, events):
            "schema \(schema) at \(server) already holds a library with \(events) events; choose another schema, "
                + "or clone that library instead."
        case let .otherLibrary(schema, expected, found):
            "schema \(schema) holds library \(found), not this folder's library \(expected). Nothing was mixed in; "
                + "point this folder at its own library's schema."
        case let .serverBehind(server, local):
            "the server's log ends at position \(server), before this machine's copy (\(local)): the server was "
                + "restored to an earlier point. Nothing was written or mixed in; restore the server from a later "
                + "backup, or push this machine's log to a new schema."
        case let .logReplaced(position):
            "the server's event at position \(position) is not the one this machine copied: the server's log was "
                + "replaced. Nothing was written or mixed in; point this folder at the right schema, or clone the "
                + "server's log into a new folder."
        case let .outOfStep(position, reason):
            "the server's log does not continue at position \(position): \(reason). Nothing was mixed in."
        case let .chainBroken(position, reason):
            "the shared library's server holds a commit at position \(position) that does not continue the log's "
                + "hash chain: \(reason). It was changed, removed, inserted or moved on the server after it was "
                + "written; nothing from it on was copied."
        case let .serverChanged(position, reason):
            "the shared library's server no longer holds what this machine copied at position \(position): "
                + "\(reason). A row was changed, removed or moved on the server after it was written; nothing "
                + "more was copied."
        case let .digestsAltered(schema, what):
            "the shared library in schema \(schema) no longer keeps its rows' digests as Episodic made it: \(what). "
                + "Someone with the tables' owner's rights changed them, which can hide a changed row; nothing more was "
                + "copied. Compare the server with this machine's copy, then have the owner "
                + "restore the schema from a backup or push a sound copy to a new schema."
        case let .rowsPastHead(position):
            "the shared library's server holds rows past the end of its log, from position \(position) on, which no "
                + "append wrote: nothing can be appended after them."
        case let .olderSchema(schema, found, needed):
            "the shared library in schema \(schema) is at version \(found), older than this build needs (\(needed)), "
                + "and this role may not upgrade it. Nothing was written."
        case let .pushMismatch(local, server):
            "after the push, the server's log hashes to \(server), not \(local) as this library's does; the library "
                + "was not switched. Push again into a new, empty schema."
        case let .blobMissing(sha256):
            "the shared library's server has no blob \(sha256), which an event refers to. Push it again from the "
                + "machine that added it."
        }
    }

    /// The kind of a server's error by its SQLSTATE: a login or a right refused, a server that cannot
    /// serve now or held a lock too long, anything else a failure.
    static func kind(ofState state: String) -> ErrorKind {
        if state.hasPrefix("28") || state == "42501" { return .denied }
        if busyStates.contains(state) || state.hasPrefix("08") || state.hasPrefix("53") { return .busy }
        return .failure
    }

    /// SQLSTATEs of a server that cannot serve now: shutting down (57P01, 57P02), starting up or
    /// recovering (57P03), a standby (25006), a statement cancelled (57014), a serialisation failure
    /// or deadlock (40001, 40P01), a lock not available (55P03).
    static let busyStates: Set = ["57P01", "57P02", "57P03", "25006", "57014", "40001", "40P01", "55P03"]
}
