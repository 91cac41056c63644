import EventLog
import Foundation
import GRDB

extension ReadModel {
    /// Opens the live generation and checks it against the log: the opened generation, if it could be
    /// opened, and what is wrong with it, if anything.
    static func openLive(
        library: String, projectors: [any Projector], log: EventLog, access: ReadModelAccess
    ) throws -> (opened: Opened?, problem: Problem?) {
        let link = LiveLink(library: library)
        var found: (path: String, claim: GenerationClaim)?
        for _ in 0..<5 where found == nil {
            let target = link.read()
            switch target {
            case .missing: return (nil, .missing)
            case .invalid(let why): return (nil, .invalidLink(why))
            case .generation(let path):
                let claim: GenerationClaim?
                do {
                    claim = try GenerationClaim.claim(path)
                } catch {
                    if case .io(_, _, ELOOP) = error { return (nil, .invalidLink("\(path) is a symbolic link")) }
                    return (nil, .unreadable("\(error)"))
                }
                if let claim {
                    found = (path, claim)
                } else if link.read() == target {
                    return (nil, .missing)  // a link to a generation that is gone
                }  // else a rebuild swapped generations meanwhile: follow the link again
            }
        }
        guard let (path, claim) = found else { return (nil, .unreadable("the read models were swapped again and again")) }

        let database: DatabasePool
        do {
            database = try openGeneration(path, access: access)
        } catch where ReadModelFailure.isMalformed(error) {
            return (nil, .damaged("\(error)", path: path))
        } catch {
            return (nil, .unreadable("\(path) cannot be opened: \(error)"))
        }
        let opened = Opened(path: path, database: database, claim: claim)
        let stored: [String: Checkpoints.Row]
        do {
            let (hasTable, identities) = try database.read { db in
                let hasTable = try db.tableExists("projections")
                return (hasTable, try hasTable && Checkpoints.recordsIdentities(db))
            }
            guard hasTable else { return (opened, .damaged("it has no projections table", path: path)) }
            guard identities else { return (opened, .olderCheckpoints) }
            stored = try database.read(Checkpoints.all)
        } catch where ReadModelFailure.isMalformed(error) {
            return (opened, .damaged("\(error)", path: path))
        } catch where ReadModelFailure.isRefusalToWrite(error) {
            return (nil, .unreadable("\(path) cannot be read: \(error)"))
        }
        if let mismatch = try mismatch(stored, log: log) { return (opened, mismatch) }
        let stale = projectors.filter { stored[$0.name]?.schemaVersion != $0.schemaVersion }.map(\.name)
        return (opened, stale.isEmpty ? nil : .staleSchema(stale))
    }

    /// Opens a generation as `access` allows: read-write; else read-only, which needs the WAL and the
    /// shared-memory index to exist; else, on a read-only file system only (nobody can change the file
    /// there), as immutable.
    private static func openGeneration(_ path: String, access: ReadModelAccess) throws -> DatabasePool {
        if access == .readWrite {
            do {
                return try check(openLive(path, readOnly: false))
            } catch where !ReadModelFailure.isMalformed(error) {
                // A full disk cannot grow the shared-memory index: reading needs none of it.
            }
        }
        do {
            return try check(openLive(path, readOnly: true))
        } catch where access.isReadOnlyFileSystem && !ReadModelFailure.isMalformed(error) {
            return try check(openLive(path, readOnly: true, immutable: true))
        }
    }

    /// Reads the schema, where SQLite finds a file that is not a database.
    private static func check(_ database: DatabasePool) throws -> DatabasePool {
        _ = try database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_schema") }
        return database
    }

    /// What replaces a live generation found wanting: a rebuild in the library when this process may
    /// write it, else a replay into a temporary folder. The caller removes the old generation's leftovers
    /// once it has let go of it.
    static func replacement(
        for problem: Problem, of opened: Opened?, library: String, projectors: [any Projector], log: EventLog,
        access: ReadModelAccess, batchSize: Int, progress: ((RebuildProgress) -> Void)?, notice: ((ReadModelNotice) -> Void)?
    ) throws -> Opened {
        var reason = problem.reason
        let unreadable = if case .unreadable = problem { true } else { false }
        if access == .readWrite, !unreadable {
            // Only projectors whose schema changed are replayed, in a copy of a live generation that is
            // otherwise sound; anything else is replayed whole.
            var targets = projectors
            if case .staleSchema(let names) = problem { targets = projectors.filter { names.contains($0.name) } }
            do {
                let fresh = try rebuildLive(
                    targets, from: opened, because: problem, library: library, projectors: projectors, log: log,
                    batchSize: batchSize, lockHeld: false, progress: progress)
                if problem.isWorthANotice { notice?(.rebuilt(reason: reason, setAside: fresh.setAside)) }
                return fresh.opened
            } catch where ReadModelFailure.isRefusalToWrite(error) {
                reason += "; it could not be rebuilt: \(error)"
            }
        } else if case .readOnly(let why) = access {
            reason += " and the library cannot be written: \(why)"
        }
        return try temporary(because: reason, projectors: projectors, log: log, batchSize: batchSize, progress: progress, notice: notice)
    }

    /// Replays the log into a new generation for `targets` (all projectors: from nothing; some: in a copy
    /// of `live`, where only they are reset), then makes it live. The long replay runs outside the
    /// writer lock unless `lockHeld`; the rest of the log, the setting aside of the old generation
    /// (when `problem` says it is worth keeping) and the swap run under it. A failure removes the new
    /// generation's files.
    static func rebuildLive(
        _ targets: [any Projector], from live: Opened?, because problem: Problem?, library: String, projectors: [any Projector],
        log: EventLog, batchSize: Int, lockHeld: Bool, progress: ((RebuildProgress) -> Void)?
    ) throws -> (opened: Opened, setAside: String?) {
        let everything = Set(targets.map(\.name)) == Set(projectors.map(\.name))
        let claim = try newGeneration(in: library)
        do {
            try build(claim.path, from: everything ? nil : live?.database, projectors: projectors, fresh: targets)
            let shadow = try openShadow(claim.path)
            if !lockHeld { try catchUp(shadow, projectors: projectors, log: log, batchSize: batchSize, progress: progress) }
            let finish = { () throws -> (opened: Opened, setAside: String?) in
                try catchUp(shadow, projectors: projectors, log: log, batchSize: batchSize, progress: lockHeld ? progress : nil)
                try shadow.close()
                var kept: String?
                let link = LiveLink(library: library)
                let old: String? = switch problem {
                case .damaged(_, let path)?: path
                default: live?.path
                }
                if let word = problem?.setAsideName, let old, link.read() == .generation(old) {
                    kept = setAside(old, as: word)
                }
                link.removeIfInvalid()
                let database = try install(claim.path, in: library)
                return (Opened(path: claim.path, database: database, claim: claim), kept)
            }
            return try lockHeld ? finish() : log.withWriterLock(finish)
        } catch {
            discard(claim.path)
            throw error
        }
    }

    /// Replays the log into a generation in a new temporary folder, removed with the read model.
    static func temporary(
        because reason: String, remedy: ReadModelRemedy? = nil, projectors: [any Projector], log: EventLog, batchSize: Int,
        progress: ((RebuildProgress) -> Void)?, notice: ((ReadModelNotice) -> Void)?
    ) throws -> Opened {
        var template = Array((NSTemporaryDirectory() + "episodic-read-XXXXXX").utf8CString)
        guard let folder = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw EventLogError.failure("create a folder in", path: NSTemporaryDirectory(), errno: errno)
        }
        TemporaryFolders.add(folder)
        do {
            let path = folder + "/" + GenerationFile.name(1)
            try build(path, from: nil, projectors: projectors, fresh: projectors)
            let shadow = try openShadow(path)
            try catchUp(shadow, projectors: projectors, log: log, batchSize: batchSize, progress: progress)
            try shadow.close()
            let database = try openLive(path, readOnly: false)
            notice?(.temporary(reason: reason, remedy: remedy))
            return Opened(path: path, database: database, claim: nil, temporaryFolder: folder)
        } catch {
            TemporaryFolders.remove(folder)
            throw error
        }
    }
}

extension ReadModel {
    /// The furthest checkpoint of the library's live read model, read without building, repairing or
    /// writing anything: the position up to which it says the log was acknowledged (a writer deciding
    /// whether a damaged tail may be cut asks this). Nil when there is no read model, or it cannot be read.
    public static func furthestCheckpoint(in library: String) -> LogPosition? {
        guard case .generation(let path) = LiveLink(library: library).read(), let claim = try? GenerationClaim.claim(path),
            let database = try? openLive(path, readOnly: true),
            let stored = try? database.read(Checkpoints.all)
        else { return nil }
        return withExtendedLifetime(claim) { stored.values.map(\.checkpoint).max().map(LogPosition.init(rawValue:)) }
    }
}
