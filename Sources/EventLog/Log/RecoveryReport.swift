/// What a writer set aside from the end of the log: the remains of a commit that was never
/// acknowledged, because its process died while writing it.
///
/// The bytes are not deleted: they are moved to ``quarantined``, inside the library, and the segment is
/// cut back to where they began. Only bytes that nothing shows were acknowledged are set aside (see
/// schemas/log-format.md, "Torn tail").
public struct RecoveryReport: Sendable, Equatable, CustomStringConvertible {
    /// The segment that was cut, and where.
    public var segment: String
    public var offset: UInt64
    public var bytesCut: UInt64
    /// Why the bytes were not a commit.
    public var reason: String
    /// Where the bytes now are, relative to the library folder: `quarantine/<segment>-<offset>-<ms>.torn`.
    public var quarantined: String
    /// The log's head after the cut: every acknowledged commit is at or before it.
    public var lastAcknowledged: LogPosition
    /// The positions the torn commit would have taken, as far as its bytes could still be read.
    /// Empty when the frame was torn before its first block was complete.
    public var unacknowledged: [LogPosition]
    /// Nil for a torn tail, which nothing acknowledged. Set only by ``EventLog/acceptLoss(acknowledgedThrough:recording:)``,
    /// when the user gave up bytes that something showed were an acknowledged commit: what showed it.
    public var discardedAcknowledged: String?

    public init(
        segment: String, offset: UInt64, bytesCut: UInt64, reason: String, quarantined: String, lastAcknowledged: LogPosition,
        unacknowledged: [LogPosition], discardedAcknowledged: String? = nil
    ) {
        self.segment = segment
        self.offset = offset
        self.bytesCut = bytesCut
        self.reason = reason
        self.quarantined = quarantined
        self.lastAcknowledged = lastAcknowledged
        self.unacknowledged = unacknowledged
        self.discardedAcknowledged = discardedAcknowledged
    }

    public var description: String {
        if let discardedAcknowledged {
            return "discarded \(bytesCut) bytes of a damaged commit from \(segment) at byte \(offset) into \(quarantined), as asked "
                + "(\(reason); \(discardedAcknowledged)). The log ends at position \(lastAcknowledged); the next commit takes "
                + "position \(lastAcknowledged.next)."
        }
        let lost: String
        if let first = unacknowledged.first, let last = unacknowledged.last {
            lost = first == last ? "position \(first) was never acknowledged" : "positions \(first)-\(last) were never acknowledged"
        } else {
            lost = "its positions could not be read"
        }
        return "set aside \(bytesCut) bytes of an unacknowledged commit from \(segment) at byte \(offset) into \(quarantined) "
            + "(\(reason); \(lost)). The log ends at position \(lastAcknowledged); the next commit takes "
            + "position \(lastAcknowledged.next)."
    }
}

/// Bytes at the end of the log that are not a whole, valid commit, as a reader found them: it stops
/// before them and changes nothing; the next writer sets them aside, or refuses to write if something
/// shows they were acknowledged.
public struct UnreadableTail: Sendable, Equatable, CustomStringConvertible {
    public var segment: String
    public var offset: UInt64
    public var bytes: UInt64
    public var reason: String

    public var description: String {
        "the log ends in \(bytes) bytes that are not a whole commit (\(segment) at byte \(offset): \(reason))"
    }
}
