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
    public var isClean: Bool { serverHash == localHash }
}

extension Library {
    /// Creates a shared library on the server at `location`, with a new library at `path` as this
    /// machine's side. The schema must not hold a library yet; the folder must not hold one with events
    /// (`push` moves such a library to a server).
    @discardableResult
    public static func createShared(at path: String, on location: SharedLocation) throws -> Library {
        if let existing = try? EventLog(at: path) {
            if try SharedLibraryFile.load(library: path) != nil {
                throw LibraryError.alreadyShared(path: path)
            }
            guard existing.head == .none else { throw LibraryError.libraryHasEvents(path: path, events: existing.head.rawValue) }
        }
        let session = try PostgresSession(location.endpoint)
        if let (_, head) = try? SharedLog(session: session, schema: location.schema).head() {
            throw SharedLogError.schemaNotEmpty(server: "\(location.endpoint)", schema: location.schema, events: head.rawValue)
        }
        let log = try EventLog.create(at: path)
        let id = try log.write { try $0.prepareChain() }
        let onServer = try PostgresSchema.prepare(location.schema, libraryID: id, on: session)
        guard onServer == id else { throw SharedLogError.otherLibrary(schema: location.schema, expected: id, found: onServer) }
        try SharedLibraryFile(endpoint: location.endpoint, schema: location.schema).save(in: log)
        let library = try Library(at: path)
        try library.openReadModels()
        return library
    }

    /// Makes `path` this machine's side of the shared library at `location`: a copy of its log, its
    /// read models built by catching up (`progress` hears how far). Blobs are fetched when first
    /// needed. Run again after an interruption, it carries on.
    @discardableResult
    public static func clone(
        _ location: SharedLocation, into path: String, progress: ((RebuildProgress) -> Void)? = nil
    ) throws -> Library {
        if let existing = try? EventLog(at: path) {
            let shared = try SharedLibraryFile.load(library: path)
            guard shared == SharedLibraryFile(endpoint: location.endpoint, schema: location.schema) || (shared == nil && existing.head == .none)
            else {
                throw shared == nil
                    ? LibraryError.libraryHasEvents(path: path, events: existing.head.rawValue) : LibraryError.alreadyShared(path: path)
            }
        }
        let session = try PostgresSession(location.endpoint)
        let (id, _) = try SharedLog(session: session, schema: location.schema).head()
        let log = try EventLog.create(at: path, id: id)
        if let local = log.libraryID, local != id {
            throw SharedLogError.otherLibrary(schema: location.schema, expected: local, found: id)
        }
        try SharedLibraryFile(endpoint: location.endpoint, schema: location.schema).save(in: log)
        let library = try Library(at: path, progress: progress)
        try library.store.withWriter(acknowledgedThrough: nil) { _ in }
        try library.openReadModels()
        _ = try library.currentReadModel(progress: progress)
        return library
    }

    /// Moves this library's log and blobs into the empty schema at `location`, keeping positions,
    /// versions, ids and times; then checks that the server's log hashes as this one does, and only
    /// then makes this folder the shared library's side. An interrupted push carries on where the
    /// server stopped. The read models stay as they are: the log they describe is the same.
    public func push(to location: SharedLocation, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> PushReport {
        guard store is EventLog else { throw LibraryError.alreadyShared(path: path) }
        return try log.write { writer in
            let id = try writer.prepareChain()
            let session = try PostgresSession(location.endpoint)
            let onServer = try PostgresSchema.prepare(location.schema, libraryID: id, on: session)
            guard onServer == id else { throw SharedLogError.otherLibrary(schema: location.schema, expected: id, found: onServer) }
            let shared = try SharedLog(session: session, schema: location.schema)
            let start = try shared.head().position
            guard start <= log.head else { throw SharedLogError.schemaNotEmpty(server: "\(location.endpoint)", schema: location.schema, events: start.rawValue) }
            try SharedLog.requireSameEvent(shared.head(andEventAt: start).event, as: log, at: start)
            var report = PushReport(alreadyThere: start.rawValue, sent: 0, blobs: 0, logHash: "")
            // Commits go in batches, a transaction each: one fsync on the server per batch, and an
            // interrupted push keeps every batch it finished.
            var batch: [StoredCommit] = []
            func send() throws {
                guard !batch.isEmpty else { return }
                try session.transaction {
                    for stored in batch {
                        let refs = Array(Set(stored.events.flatMap(\.blobs)))
                        let there = refs.isEmpty ? [] : try shared.stored(refs)
                        for ref in refs where !there.contains(ref.sha256) {
                            try shared.upload(ref, stored: log.blobs.stored(ref))
                            report.blobs += 1
                        }
                        let events = try stored.events.map { try DomainEvents.decode($0) }
                        let positions = try PostgresAppend.append(
                            stored.commit, claims: ClaimChange.changes(for: events), chained: stored.chained, schema: location.schema,
                            on: session)
                        guard positions == stored.positions else {
                            throw SharedLogError.outOfStep(
                                position: stored.positions.lowerBound, reason: "the server placed it at \(positions.lowerBound)")
                        }
                    }
                }
                report.sent += batch.reduce(0) { $0 + UInt64($1.events.count) }
                progress?(batch.last!.positions.upperBound.rawValue, log.head.rawValue)
                batch.removeAll(keepingCapacity: true)
            }
            try log.readCommits(from: start.next) { stored in
                batch.append(stored)
                if batch.count >= Self.pushBatch { try send() }
            }
            try send()
            let check = try Self.serverHash(shared, through: log.head, libraryID: id)
            report.logHash = try log.lastCommitHash()
            guard check == report.logHash else { throw SharedLogError.pushMismatch(local: report.logHash, server: check) }
            try SharedLibraryFile(endpoint: location.endpoint, schema: location.schema).save(in: log)
            return report
        }
    }

    /// Commits per transaction in a push.
    static let pushBatch = 500

    /// Catches this machine's copy up with the server, then hashes the server's commits through the
    /// copy's head and compares that with the copy's own hash: for `verify`.
    func checkServer() throws -> SharedLogCheck? {
        guard let shared = store as? SharedStore else { return nil }
        let id = try log.write { writer in
            try shared.pull(into: writer)
            return try writer.prepareChain()
        }
        let log = try shared.sharedLog()
        let serverHead = try log.head().position
        return SharedLogCheck(
            location: "\(shared.endpoint) (schema \(shared.schema))", serverHead: serverHead, localHead: self.log.head,
            serverHash: try Self.serverHash(log, through: self.log.head, libraryID: id), localHash: try self.log.lastCommitHash())
    }

    /// The chain's hash over the server's commits through `end`.
    private static func serverHash(_ shared: SharedLog, through end: LogPosition, libraryID: LibraryID) throws -> String {
        var digest = ChainDigest(libraryID: libraryID)
        var position = LogPosition.none
        while position < end {
            let commits = try shared.commits(after: position, limit: 5000)
            guard !commits.isEmpty else { break }
            for commit in commits where commit.positions.upperBound <= end {
                digest.add(commit)
                position = commit.positions.upperBound
            }
            if let last = commits.last, last.positions.upperBound > end { break }
        }
        return digest.hex
    }
}
