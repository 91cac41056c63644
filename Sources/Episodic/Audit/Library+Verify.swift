import EventCodec
import EventLog
import PodcastDomain
import Projections

/// Everything `episodic log verify` checks, and what it found.
public struct LibraryVerification: Sendable {
    /// Checksums, the continuity of positions and of stream versions, and every referenced blob's hash.
    public var log: VerificationReport
    /// Damage to the read model: what SQLite's integrity check reports, checkpoints that do not stand on
    /// the log, and a read model that opening this library found wanting and rebuilt.
    public var readModelProblems: [String]
    /// Where a read model found malformed was kept; the next command rebuilds it.
    public var readModelSetAside: String?
    /// Rows of the read models that a replay of the log does not give back.
    public var readModel: [ReadModelDifference]
    /// The position the read models were compared at; nil when they were not compared.
    public var comparedAt: LogPosition?
    /// Live episodes whose transcript could not be indexed for search.
    public var searchProblems: [SearchProblem]
    /// For a shared library: the server's log against this machine's copy.
    public var server: SharedLogCheck?
    /// Folds kept of long streams (`snapshots/`) that differ from the log's own fold of their stream
    /// through the same event: each is removed, and the next command on its entity folds the stream whole.
    public var keptFoldProblems: [String] = []

    public var isClean: Bool {
        log.isClean && readModelProblems.isEmpty && readModel.isEmpty && searchProblems.isEmpty && server?.isClean != false
            && keptFoldProblems.isEmpty
    }
}

extension Library {
    /// Checks the log, its blobs, and the read models: SQLite's integrity check, then every row against a
    /// replay of the log into a temporary folder. For a shared library, the copy first catches up with
    /// the server, and the server's commits are hashed and compared with the copy's. Changes nothing in the library but a malformed read
    /// model, set aside (when it can be) for the next command to rebuild. The replay is skipped when the
    /// log itself is damaged, since it would stop at the damage.
    public func verify(progress: ((RebuildProgress) -> Void)? = nil) throws -> LibraryVerification {
        var result = Self.logOnly(try log.verify(), at: path)
        guard result.log.isClean else { return result }
        result.server = try checkServer()
        result.keptFoldProblems = try checkKeptFolds()
        let model = try readModel()
        // A read model standing on another event than the log holds is evidence against the log: it is
        // reported, and neither compared nor rebuilt.
        if let loss = model.evidenceOfLoss(log: log) {
            result.log.problems.append(.init(segment: nil, offset: nil, message: "\(loss)"))
            return result
        }
        // A read model that opening found wanting was damage too, though it is rebuilt by now.
        for case .rebuilt(let reason, let kept) in notices {
            result.readModelProblems.append("it was rebuilt: \(reason)" + (kept.map { "; the old one is kept as \($0)" } ?? ""))
        }
        let check = try model.check(log: log, progress: progress)
        result.readModelProblems += check.problems
        result.readModel = check.differences
        result.comparedAt = check.comparedAt
        if check.problems.isEmpty {
            result.searchProblems = try model.searchProblems()
        } else {
            result.readModelSetAside = try? model.setAsideMalformed(reason: check.problems.joined(separator: "; "), log: log)
        }
        return result
    }

    /// Folds again, from the log, each stream whose fold is kept in this build's format and stands on
    /// an event the log holds (the check a command makes before it uses one: any other is never used),
    /// and removes the kept folds that differ.
    private func checkKeptFolds() throws -> [String] {
        var problems: [String] = []
        for (stream, kept) in log.snapshots.all() where kept.format == KeptStates.format {
            var folded = LibraryState(), stored = LibraryState()
            guard let aggregate = AggregateKey(streamName: stream.rawValue), KeptStates.load(kept.state, as: aggregate, into: &stored),
                try log.read(stream: stream, after: kept.point, { _ in })
            else { continue }
            try log.read(stream: stream) { envelope in
                if envelope.streamVersion <= kept.point.version { folded.evolve(try DomainEvents.decode(envelope)) }
            }
            guard folded != stored else { continue }
            log.snapshots.remove(of: stream)
            problems.append("the fold kept of \(stream) at position \(kept.point.position) is not the log's fold of it; it was removed")
        }
        return problems
    }

    /// Checks the log and its blobs of the library at `path`, without opening it first: for a log too
    /// damaged to open, whose report would otherwise be the open's first error. The read models are
    /// not compared.
    public static func verifyLog(at path: String) throws -> LibraryVerification {
        logOnly(try EventLog.verify(libraryAt: path), at: path)
    }

    /// The log's report, with one more problem when the read models had read past the log's end: the
    /// bytes it ends in were an acknowledged commit, or (when it ends cleanly) commits are missing.
    private static func logOnly(_ report: VerificationReport, at path: String) -> LibraryVerification {
        var report = report
        if let seen = ReadModel.furthestCheckpoint(in: path), seen.rawValue > report.events {
            if let tail = report.unacknowledgedTail {
                report.problems.append(.init(
                    segment: tail.segment, offset: tail.offset,
                    message: "\(tail.reason); the read models show that position \(seen) was acknowledged, so this is damage, not a torn write"))
                report.unacknowledgedTail = nil
            } else if !report.problems.contains(where: { $0.message.contains("missing: the log ends at position") }) {
                let first = LogPosition(report.events + 1)
                let lost = first == seen ? "position \(seen) is" : "positions \(first) to \(seen) are"
                report.problems.append(.init(
                    segment: nil, offset: nil,
                    message: "\(lost) missing: the log ends at position \(report.events), but the read models had read up to position \(seen)"))
            }
        }
        return LibraryVerification(
            log: report, readModelProblems: [], readModelSetAside: nil, readModel: [], comparedAt: nil, searchProblems: [],
            server: nil)
    }
}
