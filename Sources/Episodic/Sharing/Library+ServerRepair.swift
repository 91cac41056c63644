import EventLog
import PostgresLog

/// Rows a shared library's server holds past its head: written by no append (an append moves the head
/// over what it writes, in the same transaction), so no machine holds them, yet they stop every append.
public struct RowsPastHead: Sendable, Equatable {
    /// The server's head: the last position an append wrote.
    public var head: LogPosition
    /// The first position past the head that holds a row (an event or a commit's hash).
    public var first: LogPosition
    /// The events past the head, in order (none when only a commit's hash is there).
    public var events: [RecordedEvent]
}

extension Library {
    /// The rows the shared library's server holds past its head, to show before they are set aside; nil
    /// when there are none, or for a library of one's own.
    public func rowsPastServerHead() throws -> RowsPastHead? {
        guard let shared = store as? SharedStore else { return nil }
        let log = try shared.sharedLog()
        guard let (first, _) = try log.rowsPastHead() else { return nil }
        return RowsPastHead(head: try log.head().position, first: first, events: try log.eventsPastHead())
    }

    /// Moves the rows past the server's head into the schema's `set_aside` table, kept as they were,
    /// so that appends go on; nothing the head covers is touched. Returns how many rows went.
    public func setAsideRowsPastServerHead() throws -> Int {
        guard let shared = store as? SharedStore else { return 0 }
        return try shared.sharedLog().setAsidePastHead()
    }
}
