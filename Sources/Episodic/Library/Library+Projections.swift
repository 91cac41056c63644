import EventLog
import Projections

extension Library {
    /// The names of the read models this build keeps, in the order they are written.
    public var projectionNames: [String] { Projectors.names }

    /// Each read model's schema versions (stored and this build's), checkpoint and the log's head,
    /// as they stand: nothing is caught up first.
    public func projectionStatus() throws -> [ProjectionStatus] {
        try readModel().status(head: log.head)
    }

    /// Rebuilds the named read models (all of them when nil) by replaying the log into a new
    /// generation, then swapping it in; readers keep the old one until then. An unknown name throws
    /// `ProjectionError.unknownProjector(_:)` before anything is read.
    ///
    /// A log that lost or changed acknowledged commits is never replayed: the rebuild is refused as a
    /// write is (`EventLogError.lostCommits`, `.alteredCommit`, `.brokenChain`), and the read models
    /// that show it stay as they are, until the library is restored or the loss accepted.
    public func rebuildProjections(_ names: [String]? = nil, progress: ((RebuildProgress) -> Void)? = nil) throws {
        try log.checkAcknowledged(witness: acknowledgedWitness)
        let model = try readModel()
        if let loss = model.evidenceOfLoss(log: log) { throw loss }
        try model.rebuild(names, log: log, progress: progress)
    }
}
