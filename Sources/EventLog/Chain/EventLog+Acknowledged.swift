import Foundation

extension EventLog {
    /// What shows the furthest position acknowledged, besides the log: the head record, and `witness` (a
    /// read model's checkpoint). The stream index is not asked: it is derived, and a damaged one must
    /// cost a rebuild, never a refusal.
    struct AcknowledgedClaim {
        var position: LogPosition
        /// Who shows it, as a message names it.
        var source: String
    }

    /// The furthest position something outside the log shows was acknowledged, when it is past the head:
    /// the log then lacks commits it once had. Nil when nothing claims more than the log holds.
    func claimBeyondHead(_ record: HeadRecord?, witness: (() -> LogPosition)?) -> AcknowledgedClaim? {
        var claims: [AcknowledgedClaim] = []
        if let record {
            claims.append(AcknowledgedClaim(position: record.position, source: "the library's head record (HEAD)"))
        }
        if let seen = witness?() { claims.append(AcknowledgedClaim(position: seen, source: "the read models")) }
        return claims.filter { $0.position > head }.max { $0.position < $1.position }
    }

    /// Refuses to go on when the log lacks a commit that was acknowledged (the head `record` or `witness`
    /// shows a position past the head), or holds another commit where the record says one ended.
    func checkAcknowledged(_ record: HeadRecord?, witness: (() -> LogPosition)?) throws(EventLogError) {
        if let claim = claimBeyondHead(record, witness: witness) {
            throw .lostCommits(lost: head.next...claim.position, witness: claim.source)
        }
        guard let record else { return }
        let found: CommitHash?
        do {
            found = try commitHash(endingAt: record.position)
        } catch let error as EventLogError {
            throw error
        } catch {
            throw .damagedLog(segment: segments.last?.name ?? "(none)", offset: 0, reason: "the last commit cannot be read: \(error)")
        }
        guard found == record.hash else {
            throw .alteredCommit(
                position: record.position, witness: "the library's head record (HEAD)", found: found?.hex ?? "nothing whole",
                recorded: record.hash.hex)
        }
    }

    /// Refuses to go on when the log lacks a commit that was acknowledged, or holds another where one
    /// ended (see ``write(acknowledgedThrough:_:)``): for work that takes in the whole log (a rebuild of
    /// the read models) without appending to it. `witness` is a read model's furthest checkpoint.
    public func checkAcknowledged(witness: (() -> LogPosition)?) throws(EventLogError) {
        try checkAcknowledged(HeadRecord.load(libraryAt: path).record, witness: witness)
    }

    /// Refuses to take in a log that holds another commit where the head record says one ended: for a
    /// replay, which serves what it reads (a log that lost its last commits is served up to where it
    /// ends, the loss said elsewhere; a changed commit never is).
    public func checkRecordedCommit() throws(EventLogError) {
        guard let record = HeadRecord.load(libraryAt: path).record, record.position <= head else { return }
        try checkAcknowledged(record, witness: nil)
    }

    /// Replaces `HEAD` with the head, once what was appended is durable (see ``HeadRecord``). Not synced,
    /// and a failure is let go: the commits are acknowledged already, and the record is only evidence.
    func recordHead() {
        guard head != .none, head != recordedHead, let tip = chainTip, tip.head == head, let last = segments.last else { return }
        let identity: FileIdentity?
        if let (number, file) = appendFile, number == last.number {
            identity = try? file.identity()
        } else {
            identity = FileIdentity(path: last.path, followingLinks: false)
        }
        let record = HeadRecord(position: head, hash: tip.hash, segment: identity.map { (last.number, $0) })
        guard (try? Folder.library(layout.root).replace(HeadRecord.fileName, with: Array(record.text.utf8), syncingFile: false)) != nil
        else { return }
        recordedHead = head
    }
}
