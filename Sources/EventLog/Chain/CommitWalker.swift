import Crypto

/// Splits a run of log lines into commits and hashes each, for verify, compaction, and a writer that
/// needs the hash of the log's last commit.
///
/// A line starts a commit when it carries `prev` (format 2), or when its command id differs from the line
/// before it (format 1, whose commits carry no mark of their own: consecutive commits of one command id
/// then count as one, for writer and verifier alike).
///
/// A compacted frame leaves out the `prev` of every commit but its first (`"prev":""`, format 3): it is
/// the hash of the commit before, which the walk has just computed. A commit's hash always covers its
/// lines as appended, so the walker hashes such a line with the 64 digits put back where they were.
struct CommitWalker {
    /// One commit, as far as the lines fed so far go.
    struct Commit {
        /// Its first event's position.
        var first: LogPosition
        /// The `prev` its first line carries, or the hash it stands for when it is left out; nil for a
        /// commit written before the chain, or one that leaves it out where the walk cannot tell it.
        var previous: CommitHash?
        /// Whether its first line carries a `prev` that is not 64 lowercase hex digits.
        var malformedPrevious: Bool
        /// Whether its first line leaves `prev` out (`""`), as compaction does after a frame's first commit.
        var leavesPreviousOut: Bool
    }

    /// The commit being read, and the hash of its lines so far.
    private(set) var current: Commit?
    private var hasher = SHA256()
    private var command: [UInt8] = []
    /// How many commits have started since the walk began.
    private(set) var started = 0
    /// Whether the current commit's hash will be its true hash: false for a walk's first commit when
    /// the walk may have begun inside it (unless its line carries a prev, which only a commit's first
    /// line does), and for a commit whose left-out `prev` the walk cannot tell.
    private var exact: Bool
    /// The hash of the commit before the current one, when it is exact.
    private var previousHash: CommitHash?

    /// A walk whose first line `startsACommit` (position 1, or one past the end of an earlier commit);
    /// otherwise the first commit may be a part of one, and its hash is not reported.
    init(startsACommit: Bool = true) {
        exact = startsACommit
    }

    /// A walk whose first line starts the commit after one whose hash is `before`: a `prev` that line
    /// leaves out (in a compacted frame) is `before`.
    init(after before: CommitHash) {
        exact = true
        previousHash = before
    }

    /// Feeds the next line (without its newline). Returns the commit it ends, with its hash (nil when the
    /// walk cannot know it), when the line starts a new one.
    mutating func add(_ envelope: EventEnvelope) -> (commit: Commit, hash: CommitHash?)? {
        let commandBytes = envelope.commandBytes
        var ended: (Commit, CommitHash?)?
        let stored = envelope.previousBytes
        if current == nil || stored != nil || !commandBytes.elementsEqual(command) {
            if let current {
                let hash = exact ? CommitHash(digest: hasher.finalize()) : nil
                ended = (current, hash)
                previousHash = hash
                exact = true
            }
            hasher = SHA256()
            command.removeAll(keepingCapacity: true)
            command.append(contentsOf: commandBytes)
            let leftOut = stored?.isEmpty == true
            let previous = leftOut ? previousHash : stored.flatMap(CommitHash.init(hex:))
            if leftOut {
                exact = previous != nil
            } else if stored != nil {
                exact = true  // Only a commit's first line carries a prev: the walk did not begin inside it.
            }
            current = Commit(
                first: envelope.position, previous: previous, malformedPrevious: stored != nil && !leftOut && previous == nil,
                leavesPreviousOut: leftOut)
            started += 1
            if leftOut, let previous, let range = envelope.previousRange {
                // The line as appended: the digits go back between the quotes.
                hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: envelope.line[..<range.lowerBound]))
                hasher.update(data: previous.hexDigits)
                hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: envelope.line[range.lowerBound...]))
                Self.newline.withUnsafeBytes { hasher.update(bufferPointer: $0) }
                return ended
            }
        }
        hasher.update(bufferPointer: envelope.line)
        Self.newline.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return ended
    }

    /// The newline that ends every line, as hashed: made once, so that hashing a line allocates nothing.
    private static let newline: [UInt8] = [0x0A]

    /// Whether the walk will know the current commit's hash once it ends.
    var knowsCurrentHash: Bool { current != nil && exact }

    /// Ends the walk: the last commit and its hash (nil when the walk cannot know it).
    mutating func finish() -> (commit: Commit, hash: CommitHash?)? {
        guard let current else { return nil }
        defer { self.current = nil }
        return (current, exact ? CommitHash(digest: hasher.finalize()) : nil)
    }
}
