import EventLog
import Foundation
import GRDB

extension ReadModel {
    /// Opens the live generation and checks it against the log: the opened generation, if it could be
    /// opened, and what is wrong with it, if anything.
    static func openLive(
        library: String, projectors: [any Projector], log: EventLog, access: ReadModelAccess
    ) throws -> (opened: Opened?, problem: Problem?) {
        try check(liveFiles(library: library, projectors: projectors, access: access), projectors: projectors, log: log)
    }

    /// The live generation as opened without the log: its files claimed and attached, its checkpoints
    /// read (`stored`), or what stopped it being opened so far (`problem`).
    struct LiveFiles {
        var opened: Opened?
        var problem: Problem?
        var stored: [String: Checkpoints.Row] = [:]
    }

    /// The first half of ``openLive(library:projectors:log:access:)``, which needs nothing from the log.
    static func liveFiles(library: String, projectors: [any Projector], access: ReadModelAccess) throws -> LiveFiles {
        func withProblem(_ problem: Problem, _ opened: Opened? = nil) -> LiveFiles { LiveFiles(opened: opened, problem: problem) }
        let link = LiveLink(library: library)
        var found: (generation: Generation, claims: [GenerationClaim], connection: ManifestConnection)?
        for _ in 0..<5 where found == nil {
            let target = link.read()
            switch target {
            case .missing: return withProblem(.missing)
            case .invalid(let why): return withProblem(.invalidLink(why))
            case .generation(let path):
                let manifestOnly = Generation(manifest: path, files: [:])
                let claim: GenerationClaim?
                do {
                    claim = try GenerationClaim.claim(path)
                } catch {
                    if case .io(_, _, ELOOP) = error { return withProblem(.invalidLink("\(path) is a symbolic link")) }
                    if let odd = manifestOnly.entryNotAFile() { return withProblem(.notAFile(odd, generation: manifestOnly)) }
                    return withProblem(.unreadable("\(error)"))
                }
                guard let claim else {
                    if link.read() == target {
                        // A link to a generation that is gone, or to something that is no file.
                        if let odd = manifestOnly.entryNotAFile() { return withProblem(.notAFile(odd, generation: manifestOnly)) }
                        return withProblem(.missing)
                    }
                    continue  // a rebuild swapped generations meanwhile: follow the link again
                }
                let (generation, connection): (Generation, ManifestConnection)
                do {
                    (generation, connection) = try readManifest(path, access: access)
                } catch where ReadModelFailure.isMalformed(error) {
                    return withProblem(.damaged("\(error)", generation: manifestOnly))
                } catch {
                    if let odd = manifestOnly.entryNotAFile() { return withProblem(.notAFile(odd, generation: manifestOnly)) }
                    return withProblem(.unreadable("\(path) cannot be read: \(error)"))
                }
                let files: [GenerationClaim]?
                do {
                    files = try generation.claimFiles()
                } catch {
                    if case .io(_, _, ELOOP) = error { return withProblem(.damaged("one of its files is a symbolic link", generation: generation)) }
                    if let odd = generation.entryNotAFile() { return withProblem(.notAFile(odd, generation: generation)) }
                    return withProblem(.unreadable("\(error)"))
                }
                guard let files else {
                    if link.read() == target {
                        if let odd = generation.entryNotAFile() { return withProblem(.notAFile(odd, generation: generation)) }
                        return withProblem(.damaged("one of its files is missing", generation: generation))
                    }
                    continue
                }
                found = (generation, [claim] + files, connection)
            }
        }
        guard let (generation, claims, connection) = found else { return withProblem(.unreadable("the read models were swapped again and again")) }

        let database: DatabaseQueue
        do {
            database = try attached(generation, to: connection, projectors: projectors, access: access)
        } catch where ReadModelFailure.isMalformed(error) {
            if let odd = generation.entryNotAFile() { return withProblem(.notAFile(odd, generation: generation)) }
            return withProblem(.damaged("\(error)", generation: generation))
        } catch {
            return withProblem(.unreadable("\(generation.manifest) cannot be opened: \(error)"))
        }
        var opened = Opened(generation: generation, database: database, claims: claims)
        let stored: [String: Checkpoints.Row]
        do {
            let (tables, rows) = try database.readKeepingStatements { db -> ([Checkpoints.Table], [String: Checkpoints.Row]?) in
                if let found = try Checkpoints.expected(generation, in: db) { return (found.tables, found.rows) }
                let tables = try Checkpoints.tables(db)
                return (tables, tables.allSatisfy(\.recordsIdentities) ? try Checkpoints.all(db, in: tables) : nil)
            }
            let schemas = tables.map(\.schema)
            let missing = generation.isSingleFile ? (schemas.isEmpty ? ["main"] : []) : generation.files.keys.filter { !schemas.contains(schema($0)) }
            guard missing.isEmpty else { return withProblem(.damaged("it has no projections table", generation: generation), opened) }
            guard let rows else { return withProblem(.olderCheckpoints, opened) }
            stored = rows
            opened.checkpointTables = tables
        } catch where ReadModelFailure.isMalformed(error) {
            return withProblem(.damaged("\(error)", generation: generation), opened)
        } catch where ReadModelFailure.isRefusalToWrite(error) {
            return withProblem(.unreadable("\(generation.manifest) cannot be read: \(error)"))
        }
        return LiveFiles(opened: opened, stored: stored)
    }

    /// The second half: checks `files` against the log, as ``openLive(library:projectors:log:access:)`` does.
    static func check(_ files: LiveFiles, projectors: [any Projector], log: EventLog) throws -> (opened: Opened?, problem: Problem?) {
        guard var opened = files.opened, files.problem == nil else { return (files.opened, files.problem) }
        let (generation, stored) = (opened.generation, files.stored)
        if let mismatch = try mismatch(stored, log: log) { return (opened, mismatch) }
        if generation.isSingleFile { return (opened, .singleFile) }
        let stale = projectors.filter { stored[$0.name]?.schemaVersion != $0.schemaVersion }.map(\.name)
        guard stale.isEmpty else { return (opened, .staleSchema(stale)) }
        opened.knownCheckpoints = KnownCheckpoints(rows: stored, hold: log.writerLockHold)
        return (opened, nil)
    }

    /// The ways this process may open a library's files, best first: read-write; else read-only, which
    /// needs the WALs and the shared-memory indexes to exist; else, on a read-only file system only
    /// (nobody can change the files there), as immutable.
    private static func connectionAccesses(_ access: ReadModelAccess) -> [ConnectionAccess] {
        switch access {
        // A full disk cannot grow a shared-memory index: reading needs none of it.
        case .readWrite: [.readWrite, .readOnly]
        case _ where access.isReadOnlyFileSystem: [.readOnly, .immutable]
        case .readOnly: [.readOnly]
        }
    }

    /// A connection to a manifest alone, and how it was opened: its generation's files are attached to
    /// it once they are claimed, so that opening a generation opens one connection.
    struct ManifestConnection {
        var database: DatabaseQueue
        var access: ConnectionAccess
    }

    /// The manifest at `path`, read as `access` allows, through the connection its generation is then
    /// attached to (``attached(_:to:projectors:access:)``).
    static func readManifest(_ path: String, access: ReadModelAccess) throws -> (Generation, ManifestConnection) {
        func read(_ way: ConnectionAccess, writtenOnce: Bool) throws -> (Generation, ManifestConnection) {
            let database = try openManifest(path, access: way, writtenOnce: writtenOnce)
            return (try database.readKeepingStatements { try Generation.read(path, from: $0) }, ManifestConnection(database: database, access: way))
        }
        // Read as written once, SQLite neither locks the manifest nor opens its WAL and shared-memory index,
        // which it would otherwise rebuild in every process. A generation of a build before manifests is
        // one file that changes: it is opened again as `way` says.
        func read(_ way: ConnectionAccess) throws -> (Generation, ManifestConnection) {
            let (generation, connection) = try read(way, writtenOnce: true)
            guard generation.isSingleFile else { return (generation, connection) }
            try connection.database.close()
            return try read(way, writtenOnce: false)
        }
        let ways = connectionAccesses(access)
        for way in ways.dropLast() {
            do {
                return try read(way)
            } catch where !ReadModelFailure.isMalformed(error) {}
        }
        return try read(ways.last!)
    }

    /// `generation`, whose files the caller has claimed, attached to the connection that read its
    /// manifest; when they cannot be attached there, opened again as `access` allows.
    ///
    /// A file that cannot be opened because something other than a file stands in its place or in its
    /// WAL's (a folder) is damage (`SQLITE_CORRUPT`, so that the generation is set aside and rebuilt),
    /// rather than opened another way: read-only, it could be read but never written, and every command
    /// that writes would fail.
    static func attached(
        _ generation: Generation, to connection: ManifestConnection, projectors: [any Projector], access: ReadModelAccess
    ) throws -> DatabaseQueue {
        do {
            try attach(generation, projectors: projectors, to: connection.database, access: connection.access)
            return connection.database
        } catch where !ReadModelFailure.isMalformed(error) {
            if let odd = generation.entryNotAFile() { throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: odd) }
            return try openGeneration(generation, projectors: projectors, access: access)
        }
    }

    /// Opens a generation as `access` allows (see ``connectionAccesses(_:)``); `scanning` as in
    /// ``openLive(_:projectors:readOnly:immutable:scanning:)``.
    static func openGeneration(
        _ generation: Generation, projectors: [any Projector], access: ReadModelAccess, scanning: Bool = false
    ) throws -> DatabaseQueue {
        let ways = connectionAccesses(access)
        func open(_ way: ConnectionAccess) throws -> DatabaseQueue {
            try openLive(generation, projectors: projectors, readOnly: way != .readWrite, immutable: way == .immutable, scanning: scanning)
        }
        for way in ways.dropLast() {
            do {
                return try open(way)
            } catch where !ReadModelFailure.isMalformed(error) {}
        }
        return try open(ways.last!)
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
            // Only projectors whose schema changed are replayed, beside the files of a live generation that
            // is otherwise sound; anything else is replayed whole.
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

    /// Replays the log into new files for `targets`, beside the other projectors' files of `live`, which
    /// are kept as they are, never read or copied, then makes a generation of them live. Projectors `live`
    /// has no file for are replayed too. The long replay runs
    /// outside the writer lock unless `lockHeld`; the rest of the log, the setting aside of the old
    /// generation (when `problem` says it is worth keeping; then every projector is replayed) and the swap
    /// run under it. A failure removes the new files.
    static func rebuildLive(
        _ targets: [any Projector], from live: Opened?, because problem: Problem?, library: String, projectors: [any Projector],
        log: EventLog, batchSize: Int, lockHeld: Bool, progress: ((RebuildProgress) -> Void)?
    ) throws -> (opened: Opened, setAside: String?) {
        let replaced = Set(targets.map(\.name))
        // Projectors this instance does not know keep their files too.
        let kept = problem?.setAsideName != nil ? [:] : (live?.generation.files ?? [:]).filter { !replaced.contains($0.key) }
        let (folder, folderSetAside) = try generationsFolder(in: library)
        let build = try GenerationBuild(in: folder, replaying: projectors.filter { kept[$0.name] == nil })
        do {
            if !lockHeld { try build.catchUp(log, batchSize: batchSize, progress: progress) }
            let finish = { () throws -> (opened: Opened, setAside: String?) in
                try build.catchUp(log, batchSize: batchSize, progress: lockHeld ? progress : nil)
                try build.finish()
                var keptAside = folderSetAside
                let link = LiveLink(library: library)
                let old: Generation? = switch problem {
                case .damaged(_, let generation)?, .notAFile(_, let generation)?: generation
                default: live?.generation
                }
                if let word = problem?.setAsideName, let old, link.read() == .generation(old.manifest) {
                    keptAside = setAside(old, as: word) ?? keptAside
                }
                if let folder = link.clearIfInvalid() { keptAside = folder }
                return (try install(build, keeping: kept, in: library, projectors: projectors), keptAside)
            }
            return try lockHeld ? finish() : log.withWriterLock(finish)
        } catch {
            build.discard()
            throw error
        }
    }

    /// Replays the log into a generation in a new temporary folder, removed with the read model.
    static func temporary(
        because reason: String, remedy: ReadModelRemedy? = nil, projectors: [any Projector], log: EventLog, batchSize: Int,
        progress: ((RebuildProgress) -> Void)?, notice: ((ReadModelNotice) -> Void)?
    ) throws -> Opened {
        let folder = try temporaryFolder("episodic-read")
        TemporaryFolders.add(folder)
        do {
            let generation = try replay(into: folder, projectors: projectors, log: log, batchSize: batchSize, progress: progress)
            let database = try openLive(generation, projectors: projectors, readOnly: false)
            notice?(.temporary(reason: reason, remedy: remedy))
            return Opened(generation: generation, database: database, temporaryFolder: folder)
        } catch {
            TemporaryFolders.remove(folder)
            throw error
        }
    }

    /// A generation of every projector in `folder`, replayed from the log through `end` (its head when
    /// nil), with its manifest.
    static func replay(
        into folder: String, projectors: [any Projector], log: EventLog, through end: LogPosition? = nil, batchSize: Int,
        progress: ((RebuildProgress) -> Void)?
    ) throws -> Generation {
        let build = try GenerationBuild(in: folder, replaying: projectors)
        do {
            try build.catchUp(log, through: end, batchSize: batchSize, progress: progress)
            try build.finish()
            let manifest = try newFile(in: folder, for: nil).path
            try Generation.write(manifest, files: build.files)
            return Generation(manifest: manifest, files: build.files)
        } catch {
            build.discard()
            throw error
        }
    }

    /// A new folder `<temporary directory>/<prefix>-XXXXXX`.
    static func temporaryFolder(_ prefix: String) throws -> String {
        var template = Array((NSTemporaryDirectory() + prefix + "-XXXXXX").utf8CString)
        guard let folder = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw EventLogError.failure("create a folder in", path: NSTemporaryDirectory(), errno: errno)
        }
        return folder
    }
}

extension ReadModel {
    /// The furthest checkpoint of the library's live read model, read without building, repairing or
    /// writing anything: the position up to which it says the log was acknowledged (a writer deciding
    /// whether a damaged tail may be cut asks this). Nil when there is no read model, or it cannot be read.
    public static func furthestCheckpoint(in library: String) -> LogPosition? {
        guard case .generation(let path) = LiveLink(library: library).read(), let claim = try? GenerationClaim.claim(path),
            let generation = try? Generation.read(path, access: .readOnly), let files = try? generation.claimFiles(),
            let database = try? openLive(generation, projectors: [], readOnly: true),
            let stored = try? database.readKeepingStatements(Checkpoints.all)
        else { return nil }
        return withExtendedLifetime((claim, files)) { stored.values.map(\.checkpoint).max().map(LogPosition.init(rawValue:)) }
    }
}
