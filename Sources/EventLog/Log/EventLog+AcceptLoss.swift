/// Acknowledged commits a log no longer holds as they were, found by
/// ``EventLog/acceptLoss(acknowledgedThrough:recording:)``.
public struct LogLoss: Sendable, Equatable {
    /// Positions something showed were acknowledged, past the log's end; nil when the log reaches them.
    public var lost: ClosedRange<LogPosition>?
    /// The position where the head record says a commit ended that the log holds otherwise (a commit
    /// changed, or the log put back from another copy); nil when it holds the recorded one.
    public var altered: LogPosition?
    /// What showed it: the head record, the stream index, the read models.
    public var witness: String
    /// The hash the head record held, in hex; nil without one.
    public var recordedHash: String?
    /// Bad bytes set aside from the end of the log into `quarantine/`, that something showed had been an
    /// acknowledged commit.
    public var setAside: [RecoveryReport]
}

extension EventLog {
    /// Accepts that the log lost acknowledged commits, and goes on from what it holds: for a user who has
    /// no backup to restore (or restored an older copy of the log on purpose). Every write is refused
    /// until then (see ``write(acknowledgedThrough:_:)``).
    ///
    /// Under the writer lock: bad bytes at the very end are set aside into `quarantine/` even when
    /// something shows they were acknowledged; then, when the head record or `witness` (a read model's
    /// checkpoint) shows positions past the head, or the commit the head record names hashes otherwise
    /// (or `altered` names a position where something else saw another commit: a read model),
    /// the commit `recording` makes of what was found is appended: the acceptance is itself in the log,
    /// and from it on the head record names the log as it now is. A chain broken in the middle is not a
    /// loss that can be accepted (``EventLogError/brokenChain(position:reason:)`` is thrown: restore a
    /// backup). Returns what was found and where the acceptance went; nil, having appended nothing, when
    /// nothing acknowledged is missing.
    public func acceptLoss(
        acknowledgedThrough witness: (() -> LogPosition)?, alteredAt altered: (() -> (position: LogPosition, witness: String)?)? = nil,
        recording: (LogLoss) throws -> Commit
    ) throws -> (loss: LogLoss, appended: AppendResult)? {
        precondition(!isWriting, "EventLog.acceptLoss cannot be used inside EventLog.write")
        let lock = try holdWriterLock()
        isWriting = true
        acknowledgedTail = .discard
        defer {
            endWriterLockHold()
            isWriting = false
            acknowledgedTail = .refuse(witness: nil)
            appendFile = nil
            withExtendedLifetime(lock) {}
        }
        let setAside = try synchronize(repair: true).filter { $0.discardedAcknowledged != nil }
        // The index may hold entries past the new head: start it again from the log.
        if !setAside.isEmpty { try rebuildIndex() }
        let record = HeadRecord.load(libraryAt: path).record
        var loss = LogLoss(lost: nil, altered: nil, witness: "", recordedHash: record?.hash.hex, setAside: setAside)
        if let claim = claimBeyondHead(record, witness: witness) {
            loss.lost = head.next...claim.position
            loss.witness = claim.source
        } else if let record {
            let found = try commitHash(endingAt: record.position)
            if found != record.hash {
                loss.altered = record.position
                loss.witness = "the library's head record (HEAD)"
            }
        }
        if loss.lost == nil, loss.altered == nil, let (position, shown) = altered?() {
            loss.altered = position
            loss.witness = shown
        }
        if loss.lost == nil, loss.altered == nil {
            guard let first = setAside.first else { return nil }
            loss.lost = first.lastAcknowledged.next...max(first.lastAcknowledged.next, first.unacknowledged.last ?? first.lastAcknowledged.next)
            loss.witness = first.discardedAcknowledged ?? ""
        }
        try checkChangedSegments(vouchedBy: nil)
        let appended = try append(try recording(loss))
        return (loss, appended)
    }
}
