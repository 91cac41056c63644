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
    public func rebuildProjections(_ names: [String]? = nil, progress: ((RebuildProgress) -> Void)? = nil) throws {
        try readModel().rebuild(names, log: log, progress: progress)
    }
}
