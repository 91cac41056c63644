import EventLog
import Foundation
import GRDB

/// A library's read models: one SQLite file holding every projector's tables and checkpoints.
///
/// `<library>/read.sqlite` is a symbolic link to the live generation, `<library>/read/NNNNNN.sqlite`,
/// which `sqlite3` opens like any database. A rebuild replays the log into a new generation, beside
/// the live one that stays readable, then flips the link atomically (a rename) under the writer lock.
/// SQLite follows the link, so each generation keeps its own WAL; a crash at any point of a rebuild
/// leaves the live generation as it was, and the next open starts the rebuild again.
public final class ReadModel {
    public static let linkName = "read.sqlite"
    public static let generationsFolder = "read"

    public let library: String
    public let projectors: [any Projector]
    /// Events each core reads at most between two progress reports when catching up or replaying. Rows
    /// are written once per run of events that touched up to 50,000 entities.
    public let batchSize: Int
    /// The live generation, in WAL mode: many readers, one writer.
    public private(set) var database: DatabasePool
    /// The file of the live generation.
    public private(set) var generation: String

    /// Opens a library's read models, creating them if need be, and rebuilds by replay any projector
    /// whose schema version is not the one this build writes (`progress` is told how the replay goes).
    /// It does not catch up with the log: call ``catchUp(with:)`` under the writer lock for that.
    /// `projectors` nil means ``Projectors/standard(blobs:)``, reading the log's blob store.
    public init(
        library: String, log: EventLog, projectors: [any Projector]? = nil, batchSize: Int = 100_000,
        progress: ((RebuildProgress) -> Void)? = nil
    ) throws {
        self.library = library
        let projectors = projectors ?? Projectors.standard(blobs: log.blobs)
        self.projectors = projectors
        self.batchSize = max(batchSize, 1)
        if !FileManager.default.fileExists(atPath: library + "/" + Self.linkName) {
            try log.write { _ in
                if !FileManager.default.fileExists(atPath: library + "/" + Self.linkName) {
                    let path = try Self.build(Self.nextGeneration(in: library), from: nil, projectors: projectors, fresh: projectors)
                    try Self.install(path, in: library)
                }
            }
        }
        generation = try Self.liveGeneration(in: library)
        database = try Self.open(generation)
        let stale = try staleProjectors()
        if !stale.isEmpty { try rebuild(stale, log: log, progress: progress) }
    }

    /// Brings every projector up to the log's head, in batches, each batch's rows and checkpoints in one
    /// transaction. Call it under the writer lock (inside `EventLog.write`), so that no other process
    /// projects the same events at the same time. Returns how many events were applied.
    @discardableResult
    public func catchUp(with log: EventLog, progress: ((RebuildProgress) -> Void)? = nil) throws -> UInt64 {
        try reopenIfSwapped()
        return try Self.catchUp(database, projectors: projectors, log: log, batchSize: batchSize, progress: progress)
    }

    /// Rebuilds the named projectors (all when nil) by replaying the log into a new generation, then
    /// swaps it in. Readers keep the old generation until the swap.
    public func rebuild(_ names: [String]? = nil, log: EventLog, progress: ((RebuildProgress) -> Void)? = nil) throws {
        for name in names ?? [] where !projectors.contains(where: { $0.name == name }) {
            throw ProjectionError.unknownProjector(name)
        }
        let wanted = Set(names ?? projectors.map(\.name))
        try rebuild(projectors.filter { wanted.contains($0.name) }, log: log, progress: progress)
    }

    private func rebuild(_ targets: [any Projector], log: EventLog, progress: ((RebuildProgress) -> Void)?) throws {
        // Rebuilding every projector starts from an empty file; rebuilding some starts from a copy of the
        // live one, in which only those are reset.
        let everything = Set(targets.map(\.name)) == Set(projectors.map(\.name))
        let path = try Self.build(
            Self.nextGeneration(in: library), from: everything ? nil : database, projectors: projectors, fresh: targets)
        // The long part, outside the lock: readers and writers go on with the live generation.
        let shadow = try Self.openShadow(path)
        try Self.catchUp(shadow, projectors: projectors, log: log, batchSize: batchSize, progress: progress)
        try log.write { _ in
            try Self.catchUp(shadow, projectors: projectors, log: log, batchSize: batchSize, progress: nil)
            try shadow.close()
            try Self.install(path, in: library)
        }
        try reopenIfSwapped()
    }

    /// Each projector's schema versions (stored and current) and checkpoint.
    public func status(head: LogPosition) throws -> [ProjectionStatus] {
        try reopenIfSwapped()
        let stored = try database.read(Checkpoints.all)
        return projectors.map { projector in
            let row = stored[projector.name]
            return ProjectionStatus(
                name: projector.name, schemaVersion: projector.schemaVersion, storedSchemaVersion: row?.schemaVersion,
                checkpoint: LogPosition(row?.checkpoint ?? 0), head: head)
        }
    }

    /// Follows the link again if another process swapped in a new generation.
    public func reopenIfSwapped() throws {
        let live = try Self.liveGeneration(in: library)
        guard live != generation else { return }
        database = try Self.open(live)
        generation = live
    }

    private func staleProjectors() throws -> [any Projector] {
        let stored = try database.read(Checkpoints.all)
        return projectors.filter { stored[$0.name]?.schemaVersion != $0.schemaVersion }
    }
}

/// Where one projector stands.
public struct ProjectionStatus: Sendable, Equatable {
    public var name: String
    /// The version this build writes, and the one the live read model holds (nil: never built).
    public var schemaVersion: Int
    public var storedSchemaVersion: Int?
    public var checkpoint: LogPosition
    public var head: LogPosition

    public var isCurrent: Bool { storedSchemaVersion == schemaVersion && checkpoint == head }
    public var eventsBehind: UInt64 { head.rawValue - min(checkpoint.rawValue, head.rawValue) }
}
