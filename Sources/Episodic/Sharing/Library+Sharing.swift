import EventCodec
import EventLog
import Foundation
import PodcastDomain
import PostgresLog

/// Where a shared library lives on its server: a PostgreSQL connection URL and the schema that holds
/// the library (one schema per library).
public struct SharedLocation: Sendable, Equatable, CustomStringConvertible {
    public var endpoint: PostgresEndpoint
    public var schema: String

    /// The schema a library goes in when none is named.
    public static let defaultSchema = "episodic"

    /// Reads `url`; refuses a URL or a schema name that cannot be used, before anything is written.
    public init(url: String, schema: String = SharedLocation.defaultSchema) throws {
        endpoint = try PostgresEndpoint(url: url)
        try PostgresSchema.validate(schema)
        self.schema = schema
    }

    /// A location already checked: a shared library's own.
    init(endpoint: PostgresEndpoint, schema: String) {
        self.endpoint = endpoint
        self.schema = schema
    }

    /// The URL without its password, and the schema.
    public var description: String { "\(endpoint) (schema \(schema))" }
}

/// What a push did.
public struct PushReport: Sendable, Equatable {
    /// The events the server held before (from an interrupted push), and those this push sent.
    public var alreadyThere: UInt64
    public var sent: UInt64
    /// Blobs uploaded.
    public var blobs: Int
    /// The hash of the last commit, the same on the server and in the library.
    public var logHash: String
}

/// How a shared library's server checks out against this machine's copy.
public struct SharedLogCheck: Sendable, Equatable {
    public var location: String
    /// The server's head and the copy's, after catching up.
    public var serverHead: LogPosition
    public var localHead: LogPosition
    /// The hash of the server's commits through the copy's head, and the copy's own last hash.
    public var serverHash: String
    public var localHash: String
    /// What is wrong with the server's log, each naming a position: a commit that does not continue the
    /// chain, a row this machine copied that the server no longer holds as it was, rows past its head.
    public var problems: [String]
    public var isClean: Bool { serverHash == localHash && problems.isEmpty }
}

extension Library {
    /// Creates a shared library on the server at `location`, with a new library at `path` as this
    /// machine's side. The schema must not hold a library yet; the folder must not hold one with events
    /// (`push` moves such a library to a server).
    /// `lockTimeout` bounds every wait on the server for what other machines hold.
    @discardableResult
    public static func createShared(at path: String, on location: SharedLocation, lockTimeout: Duration = .seconds(10)) throws -> Library {
        if let existing = try? EventLog(at: path) {
            if try SharedLibraryFile.load(library: path) != nil {
                throw LibraryError.alreadyShared(path: path)
            }
            guard existing.head == .none else { throw LibraryError.libraryHasEvents(path: path, events: existing.head.rawValue) }
        }
        let session = try PostgresSession(location.endpoint, lockWait: lockTimeout)
        switch Result(catching: { try SharedLog(session: session, schema: location.schema).head() }) {
        case .success(let (_, head)):
            throw SharedLogError.schemaNotEmpty(server: "\(location.endpoint)", schema: location.schema, events: head.rawValue)
        case .failure(SharedLogError.noSharedLibrary):
            break
        case .failure(let error):
            throw error
        }
        let log = try EventLog.create(at: path)
        let id = try log.write { try $0.prepareChain() }
        let onServer = try PostgresSchema.prepare(location.schema, libraryID: id, on: session)
        guard onServer == id else { throw SharedLogError.otherLibrary(schema: location.schema, expected: id, found: onServer) }
        try SharedLibraryFile(endpoint: location.endpoint, schema: location.schema).save(in: log)
        let library = try Library(at: path, lockTimeout: lockTimeout)
        try library.openReadModels()
        return library
    }

    /// Makes `path` this machine's side of the shared library at `location`: a copy of its log, its
    /// read models built by catching up (`progress` hears how far). Blobs are fetched when first
    /// needed. Run again after an interruption, it carries on.
    @discardableResult
    public static func clone(
        _ location: SharedLocation, into path: String, lockTimeout: Duration = .seconds(10), progress: ((RebuildProgress) -> Void)? = nil
    ) throws -> Library {
        if let existing = try? EventLog(at: path) {
            let shared = try SharedLibraryFile.load(library: path)
            guard shared == SharedLibraryFile(endpoint: location.endpoint, schema: location.schema) || (shared == nil && existing.head == .none)
            else {
                throw shared == nil
                    ? LibraryError.libraryHasEvents(path: path, events: existing.head.rawValue) : LibraryError.alreadyShared(path: path)
            }
        }
        let session = try PostgresSession(location.endpoint, lockWait: lockTimeout)
        let (id, _) = try SharedLog(session: session, schema: location.schema).head()
        let log = try EventLog.create(at: path, id: id)
        if let local = log.libraryID, local != id {
            throw SharedLogError.otherLibrary(schema: location.schema, expected: local, found: id)
        }
        try SharedLibraryFile(endpoint: location.endpoint, schema: location.schema).save(in: log)
        let library = try Library(at: path, lockTimeout: lockTimeout, progress: progress)
        try library.store.withWriter(acknowledgedThrough: nil) { _ in }
        try library.openReadModels()
        _ = try library.currentReadModel(progress: progress)
        return library
    }

    /// Moves this library's log and blobs into the empty schema at `location`, keeping positions,
    /// versions, ids and times, each commit chained on the server as it is here; then checks that the
    /// server's log hashes as this one does, and only then makes this folder the shared library's side.
    /// An interrupted push carries on where the server stopped. The read models stay as they are: the
    /// log they describe is the same.
    public func push(to location: SharedLocation, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> PushReport {
        guard store is EventLog else { throw LibraryError.alreadyShared(path: path) }
        return try log.write { writer in
            let id = try writer.prepareChain()
            let session = try PostgresSession(location.endpoint, lockWait: log.options.lockTimeout)
            let onServer = try PostgresSchema.prepare(location.schema, libraryID: id, on: session)
            guard onServer == id else { throw SharedLogError.otherLibrary(schema: location.schema, expected: id, found: onServer) }
            let shared = try SharedLog(session: session, schema: location.schema)
            let start = try shared.head().position
            guard start <= log.head else { throw SharedLogError.schemaNotEmpty(server: "\(location.endpoint)", schema: location.schema, events: start.rawValue) }
            try SharedLog.requireSameEvent(shared.status(at: start).event, as: log, at: start)
            var report = PushReport(alreadyThere: start.rawValue, sent: 0, blobs: 0, logHash: "")
            // Commits go in batches, a transaction each: one fsync on the server per batch, and an
            // interrupted push keeps every batch it finished.
            var batch: [(stored: StoredCommit, previous: String, hash: String)] = []
            func send() throws {
                guard !batch.isEmpty else { return }
                try session.transaction {
                    for (stored, previous, hash) in batch {
                        let refs = Array(Set(stored.events.flatMap(\.blobs)))
                        let there = refs.isEmpty ? [] : try shared.stored(refs)
                        for ref in refs where !there.contains(ref.sha256) {
                            try shared.upload(ref, stored: log.blobs.stored(ref))
                            report.blobs += 1
                        }
                        let events = try stored.events.map { try DomainEvents.decode($0) }
                        let positions = try PostgresAppend.append(
                            stored.commit, claims: ClaimChange.changes(for: events), chained: stored.chained, after: previous, hash: hash,
                            schema: location.schema, on: session)
                        guard positions == stored.positions else {
                            throw SharedLogError.outOfStep(
                                position: stored.positions.lowerBound, reason: "the server placed it at \(positions.lowerBound)")
                        }
                    }
                }
                report.sent += batch.reduce(0) { $0 + UInt64($1.stored.events.count) }
                progress?(batch.last!.stored.positions.upperBound.rawValue, log.head.rawValue)
                batch.removeAll(keepingCapacity: true)
            }
            // The chain from the first commit: those the server holds already only give their hashes.
            var digest = ChainDigest(libraryID: id)
            try log.readCommits(from: LogPosition(1)) { stored in
                let previous = digest.hex
                digest.add(stored)
                guard stored.positions.lowerBound > start else { return }
                batch.append((stored, previous, digest.hex))
                if batch.count >= Self.pushBatch { try send() }
            }
            try send()
            report.logHash = try log.lastCommitHash()
            let check = try SharedStore(local: log, endpoint: location.endpoint, schema: location.schema, lockWait: log.options.lockTimeout).audit()
            guard check.problems.isEmpty, check.serverHash == report.logHash else {
                throw SharedLogError.pushMismatch(local: report.logHash, server: check.serverHash)
            }
            try SharedLibraryFile(endpoint: location.endpoint, schema: location.schema).save(in: log)
            return report
        }
    }

    /// Commits per transaction in a push.
    static let pushBatch = 500

    /// Catches this machine's copy up with the server, then reads every commit the server holds and
    /// checks its chain from the rows, and compares the commits the copy holds with the copy's: for
    /// `verify`. A catch-up refused for what the server holds is one of the problems found.
    func checkServer() throws -> SharedLogCheck? {
        guard let shared = store as? SharedStore else { return nil }
        var problems: [String] = []
        do {
            try log.write { writer in try shared.pull(into: writer) }
        } catch let error as SharedLogError where error.kind == .damaged {
            problems.append("\(error)")
        }
        let audit = try shared.audit()
        for problem in audit.problems where !problems.contains(problem) { problems.append(problem) }
        return SharedLogCheck(
            location: "\(shared.endpoint) (schema \(shared.schema))", serverHead: audit.serverHead, localHead: log.head,
            serverHash: audit.serverHash, localHash: try log.lastCommitHash(), problems: problems)
    }
}
