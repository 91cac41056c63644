import EventLog
import Foundation
import GRDB

/// A library's read models: an SQLite file per projector, holding its tables and its checkpoint, named by
/// the manifest of the generation they make up (see ``Generation``) and attached to one connection.
///
/// `<library>/read.sqlite` is a symbolic link to the live generation's manifest,
/// `<library>/read/NNNNNN.sqlite`. A rebuild replays the log into new files for the projectors it
/// rebuilds, beside the live ones that stay readable, then writes a manifest naming them with the other
/// projectors' files as they are, and flips the link atomically (a rename) under the writer lock: a
/// rebuild of one projector writes only that projector's tables. Each file keeps its own WAL; a crash at
/// any point of a rebuild leaves the live generation as it was, and the next open starts the rebuild
/// again. A process claims the files it reads (see ``GenerationClaim``), so that no rebuild removes them
/// while the process may still open them.
///
/// The read model is never trusted over the log. At open, one that is missing or damaged (SQLite cannot
/// open it or reports it malformed) is rebuilt by replay, a damaged one first set aside under `read/`.
/// One ahead of the log, or whose checkpoint stands on another event than the log's, is evidence that
/// the log once went further or held other commits: answers come from a temporary replay, writers are
/// refused, and it is kept as it is until the library is restored or the loss accepted.
/// A process that cannot write the read models (another user's library, a read-only file system, a
/// full disk) reads them as they are, or, when they cannot be used, replays the log into a temporary
/// folder; ``notices`` says what happened, for the command to tell its user.
public final class ReadModel {
    public static let linkName = LiveLink.name
    public static let generationsFolder = "read"

    public let library: String
    public let projectors: [any Projector]
    /// Events each core reads at most between two progress reports when catching up or replaying. Rows
    /// are written once per run of events that touched up to 50,000 entities.
    public let batchSize: Int
    public static let defaultBatchSize = 100_000
    /// Whether this process may change the library's read models.
    public let access: ReadModelAccess
    /// The generation answers come from, through one connection (see ``openLive(_:projectors:readOnly:immutable:scanning:)``).
    package var database: DatabaseQueue { opened.database }
    /// Its manifest.
    public var generation: String { opened.path }
    /// The file of the projector named `projector`; nil when the generation has none.
    public func file(of projector: String) -> String? { opened.generation.files[projector] }
    /// Whether answers come from a replay of the log in a temporary folder, not from the library's read models.
    public var isTemporary: Bool { opened.temporaryFolder != nil }
    /// Told of every rebuild, set-aside or fallback, as it happens.
    public var onNotice: ((ReadModelNotice) -> Void)?

    private(set) var opened: Opened
    /// A live generation ahead of the log, left as it is while answers come from a temporary replay: it
    /// is the evidence that the log once reached its checkpoint (the log's last frames may be damaged
    /// rather than lost), so only a writer, once the log's own repair has run, replaces it.
    private var aheadOfLog: (problem: Problem, live: Opened)?

    /// What the live read model shows the log lost or changed, when it stands beyond the log's head or
    /// on another event than the log holds there: writes and rebuilds are refused with it until the
    /// library is restored or the loss accepted. Nil when the read model stands on the log.
    public func evidenceOfLoss(log: EventLog) -> EventLogError? {
        aheadOfLog?.problem.loss(log: log)
    }

    /// One generation, open.
    struct Opened {
        var generation: Generation
        var database: DatabaseQueue
        /// This process's claims on the generation's files (see ``GenerationClaim``); none for a temporary
        /// replay, which no other process sees.
        var claims: [GenerationClaim] = []
        var temporaryFolder: String?
        /// Its files' `projections` tables, as found when it was opened and checked: a generation's files
        /// keep their tables while they are open (a schema change is a new generation).
        var checkpointTables: [Checkpoints.Table]?
        /// Its checkpoints as this process last read or wrote them, and where they stood in the log then.
        var knownCheckpoints: KnownCheckpoints?

        /// The manifest.
        var path: String { generation.manifest }
    }

    /// Opens a library's read models, making them when there are none, and rebuilds by replay any that
    /// the log does not vouch for (see the type's description) or any projector whose schema version
    /// is not the one this build writes (`progress` is told how the replay goes). It does not catch up
    /// with the log: call ``catchUp(with:asWriter:progress:)`` under the writer lock for that.
    /// `projectors` nil means ``Projectors/standard(blobs:)``, reading the log's blob store. `readOnly`
    /// opens them as another user's library is opened: nothing in the library is written, and what
    /// needs a replay is replayed in a temporary folder.
    public convenience init(
        library: String, log: EventLog, projectors: [any Projector]? = nil, batchSize: Int = defaultBatchSize,
        readOnly: Bool = false, progress: ((RebuildProgress) -> Void)? = nil, notice: ((ReadModelNotice) -> Void)? = nil
    ) throws {
        let projectors = projectors ?? Projectors.standard(blobs: BlobReader(log.blobs))
        let batchSize = max(batchSize, 1)
        let access = ReadModelAccess.probe(library, readOnly: readOnly)
        var found = try Self.openLive(library: library, projectors: projectors, log: log, access: access)
        guard let problem = found.problem else {
            self.init(library: library, projectors: projectors, batchSize: batchSize, access: access, notice: notice, opened: found.opened!)
            return
        }
        if problem.isEvidenceOfLoss, let live = found.opened {
            let temporary = try Self.temporary(
                because: problem.reason + "; " + problem.keptAhead, remedy: problem.remedyAhead,
                projectors: projectors, log: log, batchSize: batchSize, progress: progress, notice: notice)
            self.init(library: library, projectors: projectors, batchSize: batchSize, access: access, notice: notice, opened: temporary)
            aheadOfLog = (problem, live)
            return
        }
        let replacement = try Self.replacement(
            for: problem, of: found.opened, library: library, projectors: projectors, log: log, access: access,
            batchSize: batchSize, progress: progress, notice: notice)
        self.init(library: library, projectors: projectors, batchSize: batchSize, access: access, notice: notice, opened: replacement)
        if !isTemporary {
            found.opened = nil
            _ = try? log.withWriterLock { Self.removeLeftovers(in: library, live: opened.generation) }
        }
    }

    /// A library's live generation opened as far as it can be without the library's log: its files
    /// claimed and attached, its checkpoints read. Handed from the thread that opened them to the one
    /// that uses them (``openIfSound(_:log:notice:)``), which the first then leaves alone: a second
    /// thread using the connection (a `DatabaseQueue`, which serializes them) makes the command wait.
    public struct Files: @unchecked Sendable {
        public let library: String
        fileprivate let projectors: [any Projector]
        fileprivate let access: ReadModelAccess
        fileprivate let live: LiveFiles
    }

    /// Opens the live generation of `library` without its log: the longest part of opening read
    /// models (the files' schemas, their WALs indexed), so that it can run while the log is opened.
    /// Changes nothing in the library, whatever it finds.
    public static func openFiles(library: String, projectors: [any Projector], readOnly: Bool = false) throws -> Files {
        let access = ReadModelAccess.probe(library, readOnly: readOnly)
        return Files(
            library: library, projectors: projectors, access: access,
            live: try liveFiles(library: library, projectors: projectors, access: access))
    }

    /// The read models `files` opened, checked against `log`, if they can be used as they are: nil when
    /// they would first need a rebuild, a repair or a replay, which this leaves to
    /// ``init(library:log:projectors:batchSize:readOnly:progress:notice:)``. Changes nothing in the library.
    public static func openIfSound(_ files: Files, log: EventLog, notice: ((ReadModelNotice) -> Void)? = nil) throws -> ReadModel? {
        let (opened, problem) = try check(files.live, projectors: files.projectors, log: log)
        guard problem == nil, let opened else { return nil }
        return ReadModel(
            library: files.library, projectors: files.projectors, batchSize: defaultBatchSize, access: files.access, notice: notice,
            opened: opened)
    }

    private init(
        library: String, projectors: [any Projector], batchSize: Int, access: ReadModelAccess,
        notice: ((ReadModelNotice) -> Void)?, opened: Opened
    ) {
        self.library = library
        self.projectors = projectors
        self.batchSize = batchSize
        self.access = access
        self.onNotice = notice
        self.opened = opened
    }

    deinit {
        if let folder = opened.temporaryFolder { TemporaryFolders.remove(folder) }
    }

    /// Brings every projector up to the log's head, in batches, each batch's rows and checkpoints in one
    /// transaction. Call it under the writer lock, so that no other process projects the same events at
    /// the same time: inside `EventLog.write` (`asWriter`, the log's repair done), or inside
    /// `EventLog.withWriterLock` (`asWriter` false: a reader keeping the read models in step). A read
    /// model that stands beyond the log's head, or on another event than the log holds there, is
    /// evidence that the log lost or changed acknowledged commits: a writer is refused
    /// (``EventLogError/lostCommits(lost:witness:)``, ``EventLogError/alteredCommit(position:witness:found:recorded:)``),
    /// and a reader answers from a temporary replay and leaves it as it is.
    /// `beforeCommit` runs once, before anything is committed (or rebuilt): the write path waits there
    /// for the fsync of the events it projects, so that no read model records an event before the log
    /// holds it durably, and a failure there commits nothing. `known` states, the write path's own, spare
    /// the projection reading their streams again when they stand where the read model does. Returns
    /// how many events were applied.
    @discardableResult
    public func catchUp(
        with log: EventLog, asWriter: Bool = true, known: KnownStates? = nil, beforeCommit: (() throws -> Void)? = nil,
        progress: ((RebuildProgress) -> Void)? = nil
    ) throws -> UInt64 {
        if asWriter, let ahead = aheadOfLog, let loss = ahead.problem.loss(log: log) { throw loss }
        guard !isTemporary else {
            return try Self.catchUp(
                database, projectors: projectors, log: log, batchSize: batchSize, beforeCommit: beforeCommit, progress: progress
            ).applied
        }
        try reopenIfSwapped()
        if let checkpoints = try opened.knownCheckpoints?.stillTrue(of: log) {
            return try catchUp(from: checkpoints, with: log, known: known, beforeCommit: beforeCommit, progress: progress)
        }
        let stored = try database.readKeepingStatements { db in
            try Checkpoints.all(db, in: opened.checkpointTables ?? Checkpoints.tables(db))
        }
        guard let problem = try Self.mismatch(stored, log: log) else {
            return try catchUp(from: stored, with: log, known: known, beforeCommit: beforeCommit, progress: progress)
        }
        if asWriter, let loss = problem.loss(log: log) { throw loss }
        try beforeCommit?()
        if problem.isEvidenceOfLoss {
            let live = opened
            opened = try Self.temporary(
                because: problem.reason + "; " + problem.keptAhead, remedy: problem.remedyAhead,
                projectors: projectors, log: log, batchSize: batchSize, progress: progress, notice: onNotice)
            aheadOfLog = (problem, live)
        } else {
            try replace(because: problem, of: opened, log: log, lockHeld: true, progress: progress)
        }
        return log.head.rawValue
    }

    /// Brings the live generation from `stored`, its checkpoints known to stand on the log, to the log's
    /// head; remembers where they then stand.
    private func catchUp(
        from stored: [String: Checkpoints.Row], with log: EventLog, known: KnownStates?, beforeCommit: (() throws -> Void)?,
        progress: ((RebuildProgress) -> Void)?
    ) throws -> UInt64 {
        opened.knownCheckpoints = nil
        let caughtUp: CaughtUp
        do {
            caughtUp = try Self.catchUp(
                database, projectors: projectors, log: log, stored: stored, batchSize: batchSize, known: known,
                beforeCommit: beforeCommit, progress: progress)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY && access == .readWrite {
            // A folder in the place of a shared-memory index lets SQLite read the files, never write them.
            guard let odd = opened.generation.entryNotAFile() else { throw error }
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: odd)
        }
        opened.knownCheckpoints = KnownCheckpoints(rows: caughtUp.checkpoints, hold: log.writerLockHold)
        if caughtUp.applied > 0 { foldLargeWALs() }
        return caughtUp.applied
    }

    /// Rebuilds the named projectors (all when nil) by replaying the log into a new generation, then
    /// swaps it in. Readers keep the old generation until the swap, and as long as they have it open.
    /// Rebuilding every projector never reads the old generation.
    public func rebuild(_ names: [String]? = nil, log: EventLog, progress: ((RebuildProgress) -> Void)? = nil) throws {
        for name in names ?? [] where !projectors.contains(where: { $0.name == name }) {
            throw ProjectionError.unknownProjector(name)
        }
        if case .readOnly(let reason) = access { throw EventLogError.libraryNotWritable(path: library, reason: reason) }
        let wanted = Set(names ?? projectors.map(\.name))
        let targets = projectors.filter { wanted.contains($0.name) }
        // Asked for, a rebuild settles a read model ahead of the log too, keeping it aside.
        let fresh = try Self.rebuildLive(
            aheadOfLog == nil ? targets : projectors, from: aheadOfLog?.live ?? (isTemporary ? nil : opened),
            because: aheadOfLog?.problem, library: library, projectors: projectors, log: log,
            batchSize: batchSize, lockHeld: false, progress: progress)
        aheadOfLog = nil
        swap(to: fresh.opened, log: log, lockHeld: false)
        if let kept = fresh.setAside { onNotice?(.rebuilt(reason: "it was ahead of the log", setAside: kept)) }
    }

    /// Each projector's schema versions (stored and current) and checkpoint.
    public func status(head: LogPosition) throws -> [ProjectionStatus] {
        try reopenIfSwapped()
        let stored = try database.readKeepingStatements(Checkpoints.all)
        return projectors.map { projector in
            let row = stored[projector.name]
            return ProjectionStatus(
                name: projector.name, schemaVersion: projector.schemaVersion, storedSchemaVersion: row?.schemaVersion,
                checkpoint: LogPosition(row?.checkpoint ?? 0), head: head)
        }
    }

    /// Follows the link again if another process swapped in a new generation.
    public func reopenIfSwapped() throws {
        guard !isTemporary else { return }
        for _ in 0..<5 {
            guard case .generation(let live) = LiveLink(library: library).read(), live != generation else { return }
            guard let claim = try GenerationClaim.claim(live) else { continue }
            let (generation, connection) = try Self.readManifest(live, access: access)
            guard let files = try generation.claimFiles() else { continue }
            let database = try Self.attached(generation, to: connection, projectors: projectors, access: access)
            opened = Opened(generation: generation, database: database, claims: [claim] + files)
            return
        }
    }

    /// Sets aside the live generation, which SQLite reported malformed (`error`), and rebuilds the read
    /// models from the log; when they cannot be rebuilt here, answers come from a temporary replay.
    /// `lockHeld`: the caller holds the writer lock.
    public func recover(fromMalformed error: any Error, log: EventLog, lockHeld: Bool, progress: ((RebuildProgress) -> Void)? = nil) throws {
        guard !isTemporary else { throw error }
        let problem = opened.generation.entryNotAFile().map { Problem.notAFile($0, generation: opened.generation) }
            ?? .damaged("\(error)", generation: opened.generation)
        try replace(because: problem, of: opened, log: log, lockHeld: lockHeld, progress: progress)
    }

    /// Sets aside the live generation, which `log verify` found malformed, without rebuilding it: the
    /// next command that needs the read models does. Returns where it was kept; nil when it could not be
    /// (another user's library, a read-only file system).
    public func setAsideMalformed(reason: String, log: EventLog) throws -> String? {
        guard !isTemporary, access == .readWrite else { return nil }
        let live = opened.generation
        return try log.withWriterLock {
            guard LiveLink(library: library).read() == .generation(live.manifest), let kept = Self.setAside(live, as: "damaged") else { return nil }
            unlink(library + "/" + Self.linkName)
            try? syncFolder(library)
            onNotice?(.setAside(reason: reason, path: kept))
            return kept
        }
    }

    /// Replaces the live generation with a full replay of the log, setting the old one aside when
    /// `problem` says it is worth keeping.
    private func replace(
        because problem: Problem, of live: Opened, log: EventLog, lockHeld: Bool, progress: ((RebuildProgress) -> Void)?
    ) throws {
        if access == .readWrite {
            do {
                let fresh = try Self.rebuildLive(
                    projectors, from: live, because: problem, library: library, projectors: projectors, log: log,
                    batchSize: batchSize, lockHeld: lockHeld, progress: progress)
                swap(to: fresh.opened, log: log, lockHeld: lockHeld)
                if problem.isWorthANotice { onNotice?(.rebuilt(reason: problem.reason, setAside: fresh.setAside)) }
                return
            } catch where !lockHeld && ReadModelFailure.isRefusalToWrite(error) {
                opened = try Self.temporary(
                    because: "\(problem.reason); it could not be rebuilt: \(error)", projectors: projectors, log: log,
                    batchSize: batchSize, progress: progress, notice: onNotice)
                return
            }
        }
        guard !lockHeld else { throw EventLogError.libraryNotWritable(path: library, reason: problem.reason) }
        opened = try Self.temporary(
            because: problem.reason, projectors: projectors, log: log, batchSize: batchSize, progress: progress, notice: onNotice)
    }

    /// Moves to `fresh`, letting go of the generation used so far, then removes the generations no
    /// process uses any more.
    private func swap(to fresh: Opened, log: EventLog, lockHeld: Bool) {
        let replacedReplay = opened.temporaryFolder
        opened = fresh
        if let replacedReplay { TemporaryFolders.remove(replacedReplay) }
        if lockHeld {
            Self.removeLeftovers(in: library, live: fresh.generation)
        } else {
            _ = try? log.withWriterLock { Self.removeLeftovers(in: library, live: fresh.generation) }
        }
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

extension ReadModel {
    /// Removes what interrupted or finished rebuilds left in `read/` (generations that are not live and
    /// that no process uses, links of interrupted swaps). Call it under the writer lock; a writer does,
    /// so that a library never stays full of them.
    public func removeLeftovers() {
        guard !isTemporary, access == .readWrite else { return }
        Self.removeLeftovers(in: library, live: opened.generation)
    }
}
