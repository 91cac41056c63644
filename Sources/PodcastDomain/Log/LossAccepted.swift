import CoreValues

/// Acknowledged commits the log no longer held as they were, and that a user accepted to go on without,
/// having no backup to restore them from: the log's own record of the loss, in its `log` stream.
///
/// Until it is appended, every write to the library is refused: a truncated or altered log is damage,
/// and the evidence of it (the library's head record, the read models that had seen more) is never
/// overwritten in silence.
public struct LossAccepted: EventPayload {
    public var aggregate: AggregateKey { .log }
    /// The first and last of the positions that had been acknowledged and that the log no longer held;
    /// nil when it held them all (a commit was altered).
    public var lostFrom: UInt64?
    public var lostThrough: UInt64?
    /// The position where the head record said a commit ended that the log held otherwise; nil when none.
    public var altered: UInt64?
    /// What showed the loss: the head record, the read models, the stream index.
    public var witness: String
    /// The hash of the last acknowledged commit, as the head record held it (64 hex digits); nil without one.
    public var recordedHash: String?
    /// What was set aside from the end of the log, relative to the library (`quarantine/…`).
    public var setAside: [String]

    public init(
        lostFrom: UInt64? = nil, lostThrough: UInt64? = nil, altered: UInt64? = nil, witness: String, recordedHash: String? = nil,
        setAside: [String] = []
    ) {
        self.lostFrom = lostFrom
        self.lostThrough = lostThrough
        self.altered = altered
        self.witness = witness
        self.recordedHash = recordedHash
        self.setAside = setAside
    }
}
