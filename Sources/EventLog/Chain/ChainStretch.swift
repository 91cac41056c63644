/// The chain as one stretch of the log shows it when read apart from the stretches before it (a replay
/// reads stretches on every core at once): checked within, then joined in log order to the check of
/// everything before it (``ChainCheck/join(_:)``).
///
/// Until its first line that stores a `prev`, a stretch cannot hash what it reads: the end of a commit
/// begun before it, or commits of a compacted frame whose left-out `prev` names a commit before it. It
/// keeps those lines, and that first line, for the join to hash and check: at most about a commit's
/// or a frame's worth.
public struct ChainStretch {
    /// The lines up to and including the first that stores its prev, each followed by a newline.
    private(set) var leading: [UInt8] = []
    /// The check from that line on.
    private(set) var check: ChainCheck?

    public init() {}

    /// Feeds the stretch's next line; throws at a commit that does not continue the one before it
    /// within the stretch.
    mutating func add(_ envelope: EventEnvelope) throws(EventLogError) {
        if check == nil {
            leading.append(contentsOf: envelope.line)
            leading.append(0x0A)
            guard let stored = envelope.previousBytes, !stored.isEmpty else { return }
            check = ChainCheck()
        }
        try check!.add(envelope)
    }
}
