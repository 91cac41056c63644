import CoreValues
import EventLog
import Foundation
import PostgresNIO

/// A shared library's ``LogStore``: the log is on a PostgreSQL server; this machine keeps a copy in
/// its own ``EventLog`` (the library's folder), which its read models, verify and backup read.
///
/// The copy only ever grows by the server's commits, byte for byte as every other machine's copy, and
/// is checked as it grows: the server's library id must be the folder's, its log must reach at least
/// as far as the copy, and the event at the copy's head must be the one the copy holds; a hole or a
/// stream out of step stops the copy. So a server restored to an earlier point, or pointed at another
/// library, is refused rather than mixed in.
///
/// A writer holds the folder's writer lock (one writer per machine), brings the copy up to the
/// server, decides on it, and appends on the server, where the head row's lock orders it among every
/// machine's commits; then the copy takes the new commits.
public final class SharedStore: LogStore {
    public let local: EventLog
    public let endpoint: PostgresEndpoint
    public let schema: String
    /// The library's blobs, fetched from the server when first read.
    public let blobs: SharedBlobs
    private var session: PostgresSession?

    /// Opens the store; nothing is asked of the server until it is needed.
    public init(local: EventLog, endpoint: PostgresEndpoint, schema: String) {
        self.local = local
        self.endpoint = endpoint
        self.schema = schema
        blobs = SharedBlobs(local: local.blobs, endpoint: endpoint, schema: schema)
    }

    public var head: LogPosition { local.head }

    /// Brings the copy up to the server's log when the server answers and the folder's lock is free;
    /// otherwise to what the folder holds. ``lastContact`` says which.
    public func refresh() throws {
        do {
            try local.refresh()
            // The folder's lock only when there is something to copy: a reader that finds the copy
            // current changes nothing.
            if try check(sharedLog()) > local.head {
                try local.write { writer in try pull(into: writer) }
            }
            lastContact = .current
        } catch let error as SharedLogError where error.kind == .busy || error.kind == .failure {
            lastContact = .failed(error)
            try local.refresh()
        } catch let error as EventLogError where error.kind == .busy || error.kind == .failure {
            // Another command of this machine holds the folder, or it cannot be written: what it holds.
            try local.refresh()
        }
    }

    /// How the last ``refresh()`` went with the server.
    public enum Contact: Sendable {
        case notYet
        case current
        case failed(SharedLogError)
    }

    public private(set) var lastContact = Contact.notYet

    public func read(from start: LogPosition, through end: LogPosition?, _ body: (EventEnvelope) throws -> Void) throws {
        try local.read(from: start, through: end, body)
    }

    public func read(stream: StreamID, _ body: (EventEnvelope) throws -> Void) throws {
        try local.read(stream: stream, body)
    }

    public func read(stream: StreamID, after point: StreamPoint, _ body: (EventEnvelope) throws -> Void) throws -> Bool {
        try local.read(stream: stream, after: point, body)
    }

    public func identity(at position: LogPosition) throws -> EventIdentity? {
        try local.identity(at: position)
    }

    public var snapshots: StreamSnapshots { local.snapshots }

    public func readAsAppended(from start: LogPosition, through end: LogPosition?, _ body: (EventEnvelope) throws -> Void) throws {
        try local.readAsAppended(from: start, through: end, body)
    }

    public func readAsAppended(stream: StreamID, _ body: (EventEnvelope) throws -> Void) throws {
        try local.readAsAppended(stream: stream, body)
    }

    /// The content `ref` names: from the folder's blob store, else fetched from the server, checked
    /// against its hash, and kept in the folder (``SharedBlobs``).
    public func blob(_ ref: BlobRef) throws -> [UInt8] {
        try blobs.blob(ref)
    }

    public func withWriter<Result>(
        acknowledgedThrough witness: (() -> LogPosition)?, _ body: (any LogAppender) throws -> Result
    ) throws -> Result {
        try local.write(acknowledgedThrough: witness) { writer in
            try pull(into: writer)
            return try body(SharedAppender(store: self, writer: writer))
        }
    }

    /// Waits until the server says it has a new head or `timeout` passes, whichever is first; a
    /// notification lost on the way only costs the wait. For `log --follow`.
    public func waitForChange(timeout: Duration) {
        guard let session = try? connected() else { return Thread.sleep(forTimeInterval: timeout.seconds) }
        if listener == nil {
            // The listener and its connection stay for the next waits; a notification that comes between
            // two waits is kept by the semaphore, so the next wait returns at once. The first call returns
            // once it listens, so that the caller looks again: what came before it listened is not lost.
            let changed = self.changed
            listener = session.connection.addListener(channel: notificationChannel) { _, _ in changed.signal() }
            _ = try? session.query(PostgresQuery(unsafeSQL: "LISTEN \(notificationChannel)"))
            return
        }
        _ = changed.wait(timeout: .now() + timeout.seconds)
        while changed.wait(timeout: .now()) == .success {}
    }

    /// The channel the schema's `append` notifies, with the new head.
    var notificationChannel: String { "episodic_\(schema)" }
    private let changed = DispatchSemaphore(value: 0)
    private var listener: PostgresListenContext?

    // MARK: The server

    func connected() throws -> PostgresSession {
        if let session { return session }
        let new = try PostgresSession(endpoint)
        session = new
        return new
    }

    public func sharedLog() throws -> SharedLog { try SharedLog(session: connected(), schema: schema) }

    /// Copies the server's commits after the copy's head into the copy, through `end` (nil: the server's
    /// head), after checking that the server holds this library and the copy's last event.
    public func pull(into writer: LogWriter, through end: LogPosition? = nil) throws {
        let shared = try sharedLog()
        let serverHead = try check(shared)
        let target = min(end ?? serverHead, serverHead)
        while local.head < target {
            let commits = try shared.commits(after: local.head)
            guard !commits.isEmpty else {
                throw SharedLogError.outOfStep(position: local.head.next, reason: "the server's head is \(serverHead) but no event follows")
            }
            if case .failure(let error) = Result(catching: { () throws(EventLogError) in try writer.copy(commits) }) {
                throw Self.copyFailure(error, at: local.head.next)
            }
        }
    }
}

extension SharedStore {
    /// The server's head, once it is shown to hold this library and to continue this machine's copy:
    /// the same library id, a log at least as long, and the same event at the copy's head.
    func check(_ shared: SharedLog) throws -> LogPosition {
        let localHead = local.head
        let (library, serverHead, theirs) = try shared.head(andEventAt: localHead)
        if let expected = local.libraryID, library != expected {
            throw SharedLogError.otherLibrary(schema: schema, expected: expected, found: library)
        }
        guard serverHead >= localHead else { throw SharedLogError.serverBehind(server: serverHead, local: localHead) }
        try SharedLog.requireSameEvent(theirs, as: local, at: localHead)
        return serverHead
    }

    /// A copy refused for a stream out of step is the server's log not continuing the copy's.
    static func copyFailure(_ error: EventLogError, at position: LogPosition) -> any Error {
        guard case .versionConflict(let stream, _, let actual) = error else { return error }
        return SharedLogError.outOfStep(position: position, reason: "stream \(stream) does not follow on from version \(actual)")
    }
}

/// The write side of a ``SharedStore``: blobs to the folder and the server, the commit to the server,
/// then the server's commits into the copy.
struct SharedAppender: LogAppender {
    let store: SharedStore
    let writer: LogWriter

    var recovered: [RecoveryReport] { writer.recovered }

    func append(_ commit: Commit, blobs: [[UInt8]], claims: [ClaimChange]) throws -> AppendResult {
        let shared = try store.sharedLog()
        var refs: [BlobRef] = []
        for blob in blobs { refs.append(try store.local.blobs.put(blob)) }
        let onServer = refs.isEmpty ? [] : try shared.stored(refs)
        for ref in refs where !onServer.contains(ref.sha256) { try shared.upload(ref, stored: store.local.blobs.stored(ref)) }
        let positions: ClosedRange<LogPosition>
        do {
            positions = try appendSendingLostBlobOnce(commit, claims: claims, on: shared)
        } catch SharedLogError.unreachable(let server, let reason) {
            // The call went out; whether the server committed it before the connection went is unknown.
            throw SharedLogError.outcomeUnknown(server: server, reason: reason)
        } catch let error where Self.lostRace(error) {
            // Decided on a copy that a teammate's commit has since overtaken: take their commits, so
            // that the next decision sees them.
            try store.pull(into: writer)
            throw LogStoreRace(refusal: error)
        }
        if positions.lowerBound == store.local.head.next {
            // Nothing came between the catch-up and this commit: the copy takes it as it was sent, at the
            // positions the server gave it, without asking the server for it back.
            try writer.copy([StoredCommit(commit, at: positions.lowerBound, versionsBefore: { try writer.version(of: $0) })])
        } else {
            try store.pull(into: writer, through: positions.upperBound)
        }
        var versions: [StreamID: Int] = [:]
        for stream in Set(commit.events.map(\.stream)) { versions[stream] = try writer.version(of: stream) }
        return AppendResult(positions: positions, streamVersions: versions)
    }

    /// Appends `commit`; if the server has lost a blob it names since the upload (a clean-up on the
    /// server), sends that blob again from this machine's folder and appends once more. A blob missing
    /// again is the refusal: no teammate's commit explains it, so deciding again would meet it again.
    private func appendSendingLostBlobOnce(_ commit: Commit, claims: [ClaimChange], on shared: SharedLog) throws -> ClosedRange<LogPosition> {
        do {
            return try PostgresAppend.append(commit, claims: claims, schema: store.schema, on: shared.session)
        } catch PostgresAppendError.blobMissing(let sha256) {
            guard let ref = commit.events.lazy.flatMap(\.blobs).first(where: { $0.sha256 == sha256 }) else {
                throw PostgresAppendError.blobMissing(sha256: sha256)
            }
            try shared.upload(ref, stored: store.local.blobs.stored(ref))
            return try PostgresAppend.append(commit, claims: claims, schema: store.schema, on: shared.session)
        }
    }

    /// A refusal that a teammate's commit explains, so that the change may pass decided again on the
    /// copy that holds it: a stream moved on, or a name or number was taken.
    private static func lostRace(_ error: any Error) -> Bool {
        if case .versionConflict = error as? EventLogError { return true }
        return error as? PostgresAppendError == .claimTaken
    }

    /// The server commits each commit durably before it answers: there is nothing to group here.
    func appendUnsynced(_ commit: Commit, blobs: [[UInt8]], claims: [ClaimChange]) throws -> AppendResult {
        try append(commit, blobs: blobs, claims: claims)
    }

    /// A teammate's commit may come between a decision and its append.
    var takesCommitsDecidedAhead: Bool { false }

    func sync() throws {}

    /// Blobs go to the server with their commit: nothing to do ahead of it.
    func stage(_ contents: [[UInt8]]) {}
}
