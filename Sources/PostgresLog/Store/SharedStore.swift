import CoreValues
import EventLog
import Foundation
import PostgresNIO
import Synchronization

/// A shared library's ``LogStore``: the log is on a PostgreSQL server; this machine keeps a copy in
/// its own ``EventLog`` (the library's folder), which its read models, verify and backup read.
///
/// The copy only ever grows by the server's commits, byte for byte as every other machine's copy, and
/// is checked as it grows: the server's library id must be the folder's, its log must reach at least
/// as far as the copy and hold the copy's last event and hash, every commit copied must continue the
/// hash chain from the copy's last, and, before teammates' commits are taken, the server must still
/// hold every row the copy holds (one digest per block of positions, ``HeldDigests``). So a server
/// restored to an earlier point, pointed at another library, or whose rows were changed, removed,
/// inserted or moved after they were written, is refused rather than mixed in.
///
/// A writer holds the folder's writer lock (one writer per machine), brings the copy up to the
/// server, decides on it, and appends on the server after the copy's last commit: the head row's lock
/// orders it among every machine's commits, and the chain check refuses it if another came first
/// (then the copy takes theirs and it goes again). Every call to the server has a deadline
/// (``PostgresSession``): a server that goes silent fails the command rather than hold the lock.
public final class SharedStore: LogStore {
    public let local: EventLog
    public let endpoint: PostgresEndpoint
    public let schema: String
    /// How long a call may wait for what other machines hold on the server: the lock timeout.
    public let lockWait: Duration
    /// The library's blobs, fetched from the server when first read.
    public let blobs: SharedBlobs
    private var session: PostgresSession?

    /// Opens the store; nothing is asked of the server until it is needed.
    public init(local: EventLog, endpoint: PostgresEndpoint, schema: String, lockWait: Duration = .seconds(10)) {
        self.local = local
        self.endpoint = endpoint
        self.schema = schema
        self.lockWait = lockWait
        blobs = SharedBlobs(local: local.blobs, endpoint: endpoint, schema: schema, lockWait: lockWait)
    }

    public var head: LogPosition { local.head }

    /// Brings the copy up to the server's log when the server answers and the folder's lock is free;
    /// otherwise to what the folder holds. ``lastContact`` says which, and why. A server that cannot keep
    /// the copy current though the copy is sound (unreachable, refusing, newer, rolled back) leaves the
    /// copy as it is; one that hands out damage is an error.
    public func refresh() throws {
        do {
            try local.refresh()
            // The folder's lock only when there is something to copy: a reader that finds the copy
            // current changes nothing.
            if try check(sharedLog()).head > local.head {
                try local.write { writer in try pull(into: writer) }
            }
            lastContact = .current
        } catch let error as SharedLogError where error.leavesCopyUsable {
            lastContact = .failed(reason: error.briefly)
            try local.refresh()
        } catch let error as PostgresSchema.Failure {
            lastContact = .failed(reason: "\(error)")
            try local.refresh()
        } catch let error as EventLogError where error.kind == .busy || error.kind == .failure {
            // Another command of this machine holds the folder, or it cannot be written: what it holds.
            try local.refresh()
        }
    }

    /// How the last ``refresh()`` went with the server.
    public enum Contact: Sendable, Equatable {
        case notYet
        case current
        /// The answers come from the copy as it stands, for this reason.
        case failed(reason: String)
    }

    public private(set) var lastContact = Contact.notYet

    /// Why the password file was not read, when it was not (as libpq, a file the group or others may
    /// read is ignored): for a warning.
    public var passwordFileProblem: String? { endpoint.passwordFileProblem() }

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
    /// notification lost on the way only costs the wait, and a connection lost wakes the wait, so that
    /// the caller's next ``refresh()`` connects again. For `log --follow`.
    @discardableResult
    public func waitForChange(timeout: Duration) -> Bool {
        guard !waitsCancelled.withLock({ $0 }) else { return true }
        guard let session = try? connected() else { return local.waitForChange(timeout: timeout) }
        if listening !== session {
            // The listener and its connection stay for the next waits; a notification that comes between
            // two waits is kept by the semaphore, so the next wait returns at once. The first call returns
            // once it listens, so that the caller looks again: what came before it listened is not lost.
            let changed = self.changed
            _ = session.connection.addListener(channel: notificationChannel) { _, _ in changed.signal() }
            session.onClose { changed.signal() }
            guard (try? session.query(PostgresQuery(unsafeSQL: "LISTEN \(notificationChannel)"))) != nil else { return true }
            listening = session
            return true
        }
        let woken = changed.wait(timeout: .now() + timeout.seconds) == .success
        while changed.wait(timeout: .now()) == .success {}
        return woken
    }

    public func cancelWaits() {
        waitsCancelled.withLock { $0 = true }
        changed.signal()
    }

    /// The channel the schema's `append` notifies, with the new head.
    var notificationChannel: String { "episodic_\(schema)" }
    private let changed = DispatchSemaphore(value: 0)
    private let waitsCancelled = Mutex(false)
    /// The session whose connection listens for the channel.
    private weak var listening: PostgresSession?

    // MARK: The server

    /// The session with the server, connected again when the last one was lost.
    func connected() throws -> PostgresSession {
        if let session, !session.isBroken, !session.connection.isClosed { return session }
        let new = try PostgresSession(endpoint, lockWait: lockWait)
        session = new
        return new
    }

    public func sharedLog() throws -> SharedLog { try SharedLog(session: connected(), schema: schema) }

    /// Copies the server's commits after the copy's head into the copy, through `end` (nil: the server's
    /// head), after checking that the server holds this library and the copy's last event and hash, and,
    /// when it holds commits the copy lacks, every row the copy holds. Each commit is checked to continue
    /// the chain before it is written; the commits before one that does not are kept.
    public func pull(into writer: LogWriter, through end: LogPosition? = nil) throws {
        let shared = try sharedLog()
        let serverHead = try check(shared).head
        let target = min(end ?? serverHead, serverHead)
        guard local.head < target else { return }
        // The digests of the rows copied, kept as they are copied, so that the next check reads none back.
        var held = end == nil ? try checkHeldRows(on: shared) : nil
        defer { if let held { try? held.save(in: local) } }
        var hash = try local.lastCommitHash()
        while local.head < target {
            let commits = try shared.commits(after: local.head, through: target)
            guard !commits.isEmpty else {
                throw SharedLogError.chainBroken(position: local.head.next, reason: "the server's head is \(serverHead), but it holds no event there")
            }
            let (continuing, last, failure) = ServerChain.check(commits, after: hash)
            if continuing > 0 {
                let copied = Result { () throws(EventLogError) in try writer.copy(commits.prefix(continuing).map(\.stored)) }
                if case .failure(let error) = copied { throw Self.copyFailure(error, at: local.head.next) }
                for commit in commits.prefix(continuing) { held?.add(commit) }
            }
            if let failure { throw failure }
            hash = last
        }
    }
}

extension SharedStore {
    /// The server's status, once it is shown to hold this library and to continue this machine's copy:
    /// the same library id, a log at least as long, and the same event and commit hash at the copy's head.
    func check(_ shared: SharedLog) throws -> ServerStatus {
        let localHead = local.head
        let status = try shared.status(at: localHead)
        if let expected = local.libraryID, status.library != expected {
            throw SharedLogError.otherLibrary(schema: schema, expected: expected, found: status.library)
        }
        guard status.head >= localHead else { throw SharedLogError.serverBehind(server: status.head, local: localHead) }
        try SharedLog.requireSameEvent(status.event, as: local, at: localHead)
        if localHead > .none, status.commitHash != (try local.lastCommitHash()) {
            // Something the copy holds is not what the server holds: the held rows' check says where.
            try checkHeldRows(on: shared)
            throw SharedLogError.serverChanged(
                position: localHead, reason: "the hash the server stores for the commit that ends there is not this machine's")
        }
        return status
    }

    /// Checks that the server still holds every row the copy holds, in one query (a digest per block of
    /// positions), and names the first position where it does not. Returns the copy's digests, through
    /// its head, for a catch-up to go on with; nil for a copy without a library id.
    @discardableResult
    func checkHeldRows(on shared: SharedLog) throws -> HeldDigests? {
        guard let id = local.libraryID else { return nil }
        var held = HeldDigests.load(from: local, libraryID: id)
        let before = held.through
        try held.extend(from: local)
        guard local.head > .none else { return held }
        let theirs = try shared.blockDigests(through: local.head)
        let blocks = 0...RowDigest.block(of: local.head)
        if blocks.contains(where: { theirs[$0] != held.digest(of: $0) }) {
            // Made again from the copy, in case the kept digests were not the copy's.
            held = HeldDigests(libraryID: id)
            try held.extend(from: local)
            if let block = blocks.first(where: { theirs[$0] != held.digest(of: $0) }) {
                throw try difference(in: block, on: shared, libraryID: id)
            }
        }
        if held.through != before { try? held.save(in: local) }
        return held
    }

    /// The first row of `block` that the server holds otherwise than the copy, as an error naming it.
    private func difference(in block: Int, on shared: SharedLog, libraryID: LibraryID) throws -> SharedLogError {
        let start = RowDigest.start(of: block)
        let end = min(LogPosition(start.rawValue + RowDigest.blockSize - 1), local.head)
        var theirs = try shared.rows(from: start, through: end).makeIterator()
        var found: SharedLogError?
        try HeldDigests.walk(local, after: .none, hash: ChainDigest(libraryID: libraryID).hex) { mine in
            guard mine.event.position >= start else { return true }
            guard let server = theirs.next(), server.event.position == mine.event.position else {
                found = .serverChanged(position: mine.event.position, reason: "the server no longer holds the event this machine copied there")
                return false
            }
            if server.event != mine.event || (server.commitFirst, server.commitLast, server.chained) != (mine.commitFirst, mine.commitLast, mine.chained) {
                found = .serverChanged(position: mine.event.position, reason: "the server's event there is not the one this machine copied")
                return false
            }
            if (server.prev, server.hash) != (mine.prev, mine.hash) {
                found = .serverChanged(position: mine.event.position, reason: "the hash the server stores for the commit there is not this machine's")
                return false
            }
            return mine.event.position < end
        }
        return found ?? .serverChanged(position: start, reason: "the server's rows from there on are not the ones this machine copied")
    }

    /// A copy refused for a stream out of step is the server's log not continuing the copy's.
    static func copyFailure(_ error: EventLogError, at position: LogPosition) -> any Error {
        guard case .versionConflict(let stream, _, let actual) = error else { return error }
        return SharedLogError.chainBroken(position: position, reason: "stream \(stream) does not follow on from version \(actual)")
    }
}

/// The write side of a ``SharedStore``: blobs to the folder and the server, the commit to the server
/// after the copy's last, then into the copy.
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
        var attempt = 1
        while true {
            let previous = try store.local.lastCommitHash()
            let (stored, hash) = try PostgresAppend.chained(
                commit, at: store.local.head.next, after: previous, versionsBefore: { try writer.version(of: $0) })
            do {
                let positions = try appendSendingLostBlobOnce(commit, claims: claims, after: previous, hash: hash, on: shared)
                guard positions == stored.positions else {
                    throw SharedLogError.chainBroken(position: positions.lowerBound, reason: "the server placed this machine's commit there, not at \(stored.positions.lowerBound)")
                }
                // The copy takes it as it was sent, at the positions the server gave it, without asking
                // the server for it back.
                try writer.copy([stored])
                var versions: [StreamID: Int] = [:]
                for stream in Set(commit.events.map(\.stream)) { versions[stream] = try writer.version(of: stream) }
                return AppendResult(positions: positions, streamVersions: versions)
            } catch SharedLogError.unreachable(let server, let reason) {
                // The call went out; whether the server committed it before the connection went is unknown.
                throw SharedLogError.outcomeUnknown(server: server, reason: reason)
            } catch PostgresAppendError.behindHead(let head, _) where attempt < Self.resends {
                // A teammate's commit came first: the copy takes it, and the same decision follows it,
                // as the server would have placed it after theirs.
                attempt += 1
                try store.pull(into: writer, through: head)
            } catch let error where Self.lostRace(error) {
                // Decided on a copy that a teammate's commit has since overtaken: take their commits, so
                // that the next decision sees them.
                try store.pull(into: writer)
                throw LogStoreRace(refusal: error)
            }
        }
    }

    /// How many times a commit goes again after teammates' commits before it is decided again.
    static let resends = 8

    /// Appends `commit`; if the server has lost a blob it names since the upload (a clean-up on the
    /// server), sends that blob again from this machine's folder and appends once more. A blob missing
    /// again is the refusal: no teammate's commit explains it, so deciding again would meet it again.
    private func appendSendingLostBlobOnce(
        _ commit: Commit, claims: [ClaimChange], after previous: String, hash: String, on shared: SharedLog
    ) throws -> ClosedRange<LogPosition> {
        do {
            return try PostgresAppend.append(commit, claims: claims, after: previous, hash: hash, schema: store.schema, on: shared.session)
        } catch PostgresAppendError.blobMissing(let sha256) {
            guard let ref = commit.events.lazy.flatMap(\.blobs).first(where: { $0.sha256 == sha256 }) else {
                throw PostgresAppendError.blobMissing(sha256: sha256)
            }
            try shared.upload(ref, stored: store.local.blobs.stored(ref))
            return try PostgresAppend.append(commit, claims: claims, after: previous, hash: hash, schema: store.schema, on: shared.session)
        }
    }

    /// A refusal that a teammate's commit explains, so that the change may pass decided again on the
    /// copy that holds it: a stream moved on, a name or number was taken, or the log kept moving on.
    private static func lostRace(_ error: any Error) -> Bool {
        if case .versionConflict = error as? EventLogError { return true }
        if case .behindHead = error as? PostgresAppendError { return true }
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
