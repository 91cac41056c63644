/// Holds the lines a read passes over, in log order, to the hash chain: every commit must name, as its
/// `prev`, the hash of the commit before it. A replay, a catch-up, compaction and a backup read through
/// one, so that a commit edited, removed or reordered anywhere they read stops them at the first commit
/// after it, instead of being taken in.
///
/// A check that starts where it cannot know the hash of the commit before (``init(after:)`` with nil,
/// inside a commit, or in a stretch read apart from the one before it) checks from the first commit whose
/// predecessor's hash it has computed itself.
public struct ChainCheck {
    private var walker: CommitWalker
    /// The hash of the commit before the current one, when known.
    private var before: CommitHash?
    /// Whether a commit carrying `prev` has been read: from then on, a commit without one is a break
    /// (commits written before log format 2 carry none, and come before every chained one).
    private var chained = false

    /// A check whose first line starts the commit after the one whose hash is `before`.
    init(after before: CommitHash) {
        walker = CommitWalker(after: before)
        self.before = before
    }

    /// A check from the log's first line: its first commit names the genesis hash of the library `id`
    /// (nil for a library written before ids, whose first commits carry no prev).
    init(atStartOf id: LibraryID?) {
        if let id {
            self.init(after: .genesis(of: id))
        } else {
            self.init(walker: CommitWalker(startsACommit: true))
        }
    }

    /// A check whose first line may be inside a commit: it checks from the first commit whose
    /// predecessor's hash it has computed itself.
    init() {
        self.init(walker: CommitWalker(startsACommit: false))
    }

    private init(walker: CommitWalker) {
        self.walker = walker
    }

    /// Feeds the next line; throws at the first commit that does not continue the chain, naming it.
    mutating func add(_ envelope: EventEnvelope) throws(EventLogError) {
        let started = walker.started
        let ended = walker.add(envelope)
        guard walker.started > started, let commit = walker.current else { return }
        if started > 0 { before = ended?.hash }
        if commit.malformedPrevious {
            throw .brokenChain(position: commit.first, reason: "its prev is not 64 lowercase hex digits")
        }
        if commit.leavesPreviousOut {
            // The frame gives it: the hash just computed. Never the log's first commit, always a frame's first.
            guard commit.first == LogPosition(1) else { return }
            throw .brokenChain(position: commit.first, reason: "the log's first commit leaves its prev out")
        }
        guard let claimed = commit.previous else {
            guard chained else { return }
            throw .brokenChain(position: commit.first, reason: "it names no prev, though the commits before it do")
        }
        chained = true
        if let before, claimed != before {
            throw .brokenChain(
                position: commit.first,
                reason: "it names \(claimed.short) as the hash of the commit before it, which hashes to \(before.short)")
        }
    }

    /// The hash of the last commit fed whole so far, when the check knows it: the commit being read
    /// once it has ended (at the end of the read, or when the next begins).
    var hashOfCurrentCommit: CommitHash? {
        var copy = walker
        return copy.finish()?.hash
    }

    /// Whether the check knows the hash of the commit being read so far, so that it can check the next.
    var knowsCurrentCommit: Bool { walker.knowsCurrentHash }
}

extension CommitHash {
    /// The first eight hex digits, as people see a hash.
    var short: String { String(hex.prefix(8)) + "…" }
}

extension ChainCheck {
    /// Continues this check with a stretch read apart from it, which follows the last line fed here.
    public mutating func join(_ stretch: ChainStretch) throws(EventLogError) {
        var failure: EventLogError?
        stretch.leading.withUnsafeBytes { raw in
            for (_, line) in Lines(raw) {
                guard let envelope = try? EnvelopeParser.parse(line) else {
                    preconditionFailure("a line read once as an event could not be read again")
                }
                do throws(EventLogError) { try add(envelope) } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        if let rest = stretch.check { self = rest }
    }
}
