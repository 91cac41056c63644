import CoreValues
import EventLog

/// What `episodic log verify` finds comparing a shared library's server with this machine's copy: the
/// whole chain checked from the server's rows, the commits the copy holds compared with the copy's, and
/// rows past the server's head.
public struct ServerAudit: Sendable, Equatable {
    public var serverHead: LogPosition
    /// The chain's hash over the server's commits through the copy's head, computed from their rows.
    public var serverHash: String
    /// What is wrong, each naming a position; empty when the server holds the copy's log and a chain
    /// that holds from the first commit to its head.
    public var problems: [String]
}

extension SharedStore {
    /// Reads every commit the server holds, checks its chain from the rows, and compares the commits the
    /// copy holds with the copy; changes nothing. A server that cannot be reached, or whose schema this
    /// build does not know, is an error.
    public func audit() throws -> ServerAudit {
        let shared = try sharedLog()
        let status = try shared.status(at: .none)
        let id = local.libraryID ?? status.library
        let copyHead = local.head
        var problems: [String] = []
        var hash = ChainDigest(libraryID: id).hex
        var throughCopy = copyHead == .none ? hash : nil
        var chainBroken = false
        var position = LogPosition.none
        while position < status.head {
            let commits: [ChainedCommit]
            do {
                commits = try shared.commits(after: position, through: status.head, limit: 5000)
            } catch let error as SharedLogError where error.kind == .damaged {
                problems.append("\(error)")
                break
            }
            guard let last = commits.last else {
                problems.append("\(SharedLogError.chainBroken(position: position.next, reason: "the server holds no event there"))")
                break
            }
            for commit in commits {
                // Hashed from its rows whatever the server stores with it, to compare with the copy.
                var digest = ChainDigest(after: hash)!
                digest.add(commit.stored)
                if !chainBroken, let failure = ServerChain.check([commit], after: hash).failure {
                    problems.append("\(failure)")
                    chainBroken = true
                }
                hash = digest.hex
                if commit.positions.upperBound == copyHead { throughCopy = hash }
            }
            position = last.positions.upperBound
        }
        if status.head < copyHead {
            problems.append("\(SharedLogError.serverBehind(server: status.head, local: copyHead))")
        } else if throughCopy != (try local.lastCommitHash()) {
            do {
                try checkHeldRows(on: shared)
                problems.append("\(SharedLogError.serverChanged(position: copyHead, reason: "the server's commits through there do not hash as this machine's"))")
            } catch let error as SharedLogError {
                problems.append("\(error)")
            }
        }
        if let (first, events) = try shared.rowsPastHead() {
            problems.append("\(SharedLogError.rowsPastHead(position: first)) (\(events) event\(events == 1 ? "" : "s"))")
        }
        return ServerAudit(serverHead: status.head, serverHash: throughCopy ?? "", problems: problems)
    }
}
