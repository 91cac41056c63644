import EventLog

/// A generation's checkpoints as this process last read them (and found them standing on the log) or
/// wrote them, so that a command does not read them again under the writer lock when nothing can have
/// moved them: only the lock's holder changes a generation's files, a catch-up moves a checkpoint no
/// further than the log's head, and a rebuild makes a new generation (its ``ReadModel/Opened`` starts
/// without any).
struct KnownCheckpoints {
    var rows: [String: Checkpoints.Row]
    /// The writer-lock hold they were read or written under (``EventLog/writerLockHold``); nil: none.
    var hold: Int?

    /// `rows`, when they still describe the generation's files under the writer-lock hold now under way:
    /// read or written under that same hold; or all at the log's head, on the event they recorded
    /// there. Nil when they must be read again, and outside a hold.
    func stillTrue(of log: EventLog) throws -> [String: Checkpoints.Row]? {
        guard let now = log.writerLockHold else { return nil }
        if hold == now { return rows }
        let head = log.head
        guard let identity = rows.values.first?.identity,
            rows.values.allSatisfy({ $0.checkpoint == head.rawValue && $0.identity == identity }),
            try log.identity(at: head) == identity
        else { return nil }
        return rows
    }
}
