import Crypto

/// Splits a run of log lines into commits and hashes each, for verify and for a writer that needs the
/// hash of the log's last commit.
///
/// A line starts a commit when it carries `prev` (format 2), or when its command id differs from the line
/// before it (format 1, whose commits carry no mark of their own: consecutive commits of one command id
/// then count as one, for writer and verifier alike).
struct CommitWalker {
    /// One commit, as far as the lines fed so far go.
    struct Commit {
        /// Its first event's position.
        var first: LogPosition
        /// The `prev` its first line carries; nil for a commit written before the chain.
        var previous: CommitHash?
        /// Whether its first line carries a `prev` that is not 64 lowercase hex digits.
        var malformedPrevious: Bool
    }

    /// The commit being read, and the hash of its lines so far.
    private(set) var current: Commit?
    private var hasher = SHA256()
    private var command: [UInt8] = []
    /// How many commits have started since the walk began.
    private(set) var started = 0

    /// Feeds the next line (without its newline). Returns the commit it ends, with its hash, when the line
    /// starts a new one.
    mutating func add(_ envelope: EventEnvelope) -> (commit: Commit, hash: CommitHash)? {
        let commandBytes = envelope.commandBytes
        var ended: (Commit, CommitHash)?
        let carriesPrevious = envelope.previousBytes != nil
        if current == nil || carriesPrevious || !commandBytes.elementsEqual(command) {
            if let current { ended = (current, CommitHash(digest: hasher.finalize())) }
            hasher = SHA256()
            command = Array(commandBytes)
            let previous = envelope.previousBytes.flatMap(CommitHash.init(hex:))
            current = Commit(first: envelope.position, previous: previous, malformedPrevious: carriesPrevious && previous == nil)
            started += 1
        }
        hasher.update(bufferPointer: envelope.line)
        hasher.update(data: [0x0A])
        return ended
    }

    /// Ends the walk: the last commit and its hash.
    mutating func finish() -> (commit: Commit, hash: CommitHash)? {
        guard let current else { return nil }
        defer { self.current = nil }
        return (current, CommitHash(digest: hasher.finalize()))
    }
}
