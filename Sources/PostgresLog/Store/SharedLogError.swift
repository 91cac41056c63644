import CoreValues
import EventLog

/// What can go wrong between a machine and its shared library's server. Each case has one kind.
public enum SharedLogError: Error, Equatable, Sendable, ClassifiedError, CustomStringConvertible {
    /// The server did not answer (down, unreachable, too slow to accept a connection). Nothing was
    /// written; the same command works once it answers.
    case unreachable(server: String, reason: String)
    /// The connection was lost while the server was taking a change: it may have been written. The next
    /// command's catch-up copies it if it was.
    case outcomeUnknown(server: String, reason: String)
    /// The server answered and said no: a wrong password, a missing database or role, no permission.
    case serverRefused(server: String, reason: String)
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
    /// What the server holds for the log after a push is not what the library holds.
    case pushMismatch(local: String, server: String)
    /// The server has no blob with this hash, which an event refers to.
    case blobMissing(sha256: String)

    public var kind: ErrorKind {
        switch self {
        case .unreachable, .outcomeUnknown: .busy
        case .serverRefused: .failure
        case .noSharedLibrary: .missing
        case .schemaNotEmpty, .otherLibrary: .refused
        case .serverBehind, .logReplaced, .outOfStep, .pushMismatch, .blobMissing: .damaged
        }
    }

    /// What went wrong, without what to do about it: for a notice beside answers that still come.
    public var briefly: String {
        if case let .unreachable(server, reason) = self { return "the server at \(server) cannot be reached (\(reason))" }
        return description
    }

    public var description: String {
        switch self {
        case let .unreachable(server, reason):
            "the shared library's server at \(server) cannot be reached (\(reason)). Nothing was written; "
                + "try again once it answers. Lists and searches still answer from this machine's copy."
        case let .outcomeUnknown(server, reason):
            "the connection to the shared library's server at \(server) was lost while it was taking the change "
                + "(\(reason)): it may have been written. `episodic log` shows whether it was; run the command again only "
                + "if it was not."
        case let .serverRefused(server, reason):
            "the server at \(server) refused the connection: \(reason). Check the user, the database and the "
                + "password (PGPASSWORD or ~/.pgpass)."
        case let .noSharedLibrary(server, schema):
            "there is no shared library in schema \(schema) at \(server). Check the schema's name, or create one "
                + "with `episodic init --postgres`."
        case let .schemaNotEmpty(server, schema, events):
            "schema \(schema) at \(server) already holds a library with \(events) events; choose another schema "
                + "with --schema, or clone that library instead."
        case let .otherLibrary(schema, expected, found):
            "schema \(schema) holds library \(found), not this folder's library \(expected). Nothing was mixed in; "
                + "point this folder at its own library's schema."
        case let .serverBehind(server, local):
            "the server's log ends at position \(server), before this machine's copy (\(local)): the server was "
                + "restored to an earlier point. Nothing was mixed in; restore the server from a later backup, or "
                + "push this machine's log to a new schema."
        case let .logReplaced(position):
            "the server's event at position \(position) is not the one this machine copied: the server's log was "
                + "replaced. Nothing was mixed in; point this folder at the right schema, or clone the server's log "
                + "into a new folder."
        case let .outOfStep(position, reason):
            "the server's log does not continue at position \(position): \(reason). Nothing was mixed in; run "
                + "`episodic log verify`."
        case let .pushMismatch(local, server):
            "after the push, the server's log hashes to \(server), not \(local) as this library's does; the library "
                + "was not switched. Push again into a new, empty schema."
        case let .blobMissing(sha256):
            "the shared library's server has no blob \(sha256), which an event refers to. Push it again from the "
                + "machine that added it."
        }
    }
}
