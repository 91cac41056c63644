/// What a writer cut from the end of the log: the remains of a commit that was never acknowledged,
/// because its process died while writing it.
public struct RecoveryReport: Sendable, Equatable, CustomStringConvertible {
    /// The segment that was cut, and where.
    public var segment: String
    public var offset: UInt64
    public var bytesCut: UInt64
    /// Why the bytes were not a commit.
    public var reason: String
    /// The log's head after the cut: every acknowledged commit is at or before it.
    public var lastAcknowledged: LogPosition
    /// The positions the torn commit would have taken, as far as its bytes could still be read.
    /// Empty when the frame was torn before its first block was complete.
    public var unacknowledged: [LogPosition]

    public var description: String {
        let lost: String
        if let first = unacknowledged.first, let last = unacknowledged.last {
            lost = first == last ? "position \(first)" : "positions \(first)-\(last)"
        } else {
            lost = "its positions could not be read"
        }
        return "cut \(bytesCut) bytes of an unacknowledged commit from \(segment) at byte \(offset) "
            + "(\(reason); \(lost)). The log ends at position \(lastAcknowledged); the next commit takes "
            + "position \(lastAcknowledged.next)."
    }
}
