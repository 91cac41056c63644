import EventLog
import Projections

/// Everything `episodic log verify` checks, and what it found.
public struct LibraryVerification: Sendable {
    /// Checksums, the continuity of positions and of stream versions, and every referenced blob's hash.
    public var log: VerificationReport
    /// Rows of the read models that a replay of the log does not give back.
    public var readModel: [ReadModelDifference]
    /// Live episodes whose transcript could not be indexed for search.
    public var searchProblems: [SearchProblem]

    public var isClean: Bool { log.isClean && readModel.isEmpty && searchProblems.isEmpty }
}

extension Library {
    /// Checks the log, its blobs, and the read models against a replay of the log. The replay is
    /// skipped when the log itself is damaged, since it would stop at the damage.
    public func verify(progress: ((RebuildProgress) -> Void)? = nil) throws -> LibraryVerification {
        let report = try log.verify()
        guard report.isClean else { return LibraryVerification(log: report, readModel: [], searchProblems: []) }
        let model = try readModel()
        let differences = try model.differencesFromReplay(log: log, progress: progress)
        return LibraryVerification(log: report, readModel: differences, searchProblems: try model.searchProblems())
    }
}
