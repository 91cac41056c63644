import EventLog

/// A group's commits decided but not yet appended, where the writer takes them so
/// (``LogAppender/takesCommitsDecidedAhead``): each command's still its own commit, all appended
/// together at the end of the group, the folders of their blobs synced once for all of them.
struct CommitsDecidedAhead {
    private struct Decided {
        let commit: CommitToAppend
        /// Where the command's result is among the group's.
        let result: Int
        /// The command's place in the batch, and its name, for its failure.
        let index: Int
        let name: String
    }

    private var decided: [Decided] = []

    mutating func add(_ commit: CommitToAppend, result: Int, index: Int, name: String) {
        decided.append(Decided(commit: commit, result: result, index: index, name: name))
    }

    /// Appends them all, in order, and forgets them. Returns where each appended one's result is, with
    /// the positions the log gave it; and the first that could not be appended, with its failure: none
    /// after it was tried.
    mutating func append(to writer: any LogAppender) -> (appended: [(result: Int, positions: ClosedRange<LogPosition>)], failed: (result: Int, failure: SubmitFailure)?) {
        defer { decided = [] }
        guard !decided.isEmpty else { return ([], nil) }
        let done: [AppendResult]
        var failed: (result: Int, failure: SubmitFailure)?
        do {
            done = try writer.appendUnsynced(decided.map(\.commit))
        } catch {
            let partial = error as? PartialAppend ?? PartialAppend(appended: [], error: error)
            done = partial.appended
            let next = decided[done.count]
            failed = (next.result, SubmitFailure(index: next.index, name: next.name, error: partial.error))
        }
        return (zip(decided, done).map { ($0.result, $1.positions) }, failed)
    }
}
