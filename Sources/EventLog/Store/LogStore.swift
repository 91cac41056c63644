import CoreValues
import Foundation

/// Where a library's log lives, as the facade needs it: the head, reading by position and by stream,
/// content by hash, and the writer's critical section in which commits are appended.
///
/// ``EventLog``, the file log in the library's folder, is the embedded implementation. A shared
/// library keeps its log on a server instead; its store gives the same guarantees: a commit is all or
/// nothing, its expected versions are checked against the streams as they are when it is appended, and
/// ``LogAppender/append(_:blobs:claims:)`` returns only once the commit is durable. Positions are 1, 2, 3...
/// without holes, in commit order, so reading from a position never skips an event.
///
/// The read models read the library's local ``EventLog``; for a shared library that is the local copy
/// which catches up with the server.
public protocol LogStore: AnyObject {
    /// The position of the last event, as this instance last read it (at open, or at the last
    /// ``refresh()`` or writer section). Zero for an empty log.
    var head: LogPosition { get }

    /// Brings ``head`` up to the log's, for a reader that holds no lock.
    func refresh() throws

    /// Calls `body` with every event from `start` through `end` (nil: the head), in order. The
    /// envelope is valid only during the call. Damage is thrown, never skipped.
    func read(from start: LogPosition, through end: LogPosition?, _ body: (EventEnvelope) throws -> Void) throws

    /// Calls `body` with the events of one stream, in order.
    func read(stream: StreamID, _ body: (EventEnvelope) throws -> Void) throws

    /// Like ``read(stream:_:)``, with only the events after `point`, where a fold was kept; false, having
    /// read nothing, when the log does not hold that event there (see ``EventLog/read(stream:after:_:)``).
    func read(stream: StreamID, after point: StreamPoint, _ body: (EventEnvelope) throws -> Void) throws -> Bool

    /// The identity of the event at `position`, as appended; nil beyond the head.
    func identity(at position: LogPosition) throws -> EventIdentity?

    /// Folds of long streams kept on this machine, beside the log it reads.
    var snapshots: StreamSnapshots { get }

    /// Like ``read(from:through:_:)``, with each line as it was appended: where compaction left a
    /// commit's `prev` out, it is put back. For showing the log, not for replaying it.
    func readAsAppended(from start: LogPosition, through end: LogPosition?, _ body: (EventEnvelope) throws -> Void) throws

    /// Like ``read(stream:_:)``, with each line as it was appended.
    func readAsAppended(stream: StreamID, _ body: (EventEnvelope) throws -> Void) throws

    /// The content `ref` names, checked against its hash; a missing or damaged blob is an
    /// ``EventLogError``.
    func blob(_ ref: BlobRef) throws -> [UInt8]

    /// Returns true when the log may have grown, false after `timeout`: for a reader that follows the
    /// log. After ``cancelWaits()``, returns at once.
    @discardableResult
    func waitForChange(timeout: Duration) -> Bool

    /// Ends the current ``waitForChange(timeout:)`` and makes every later one return at once: for a
    /// follower that stops. Safe from any thread.
    func cancelWaits()

    /// Runs `body` as the log's only writer: no other writer appends until it returns, and `body`
    /// reads the log as it is after every earlier commit. `acknowledgedThrough` is the furthest
    /// position that state kept outside the log has seen (a read model's checkpoint), asked only when
    /// the log's end is damaged, so that an acknowledged commit is never mistaken for a torn one.
    func withWriter<Result>(
        acknowledgedThrough: (() -> LogPosition)?, _ body: (any LogAppender) throws -> Result
    ) throws -> Result
}

/// The write side of a ``LogStore``, valid only inside ``LogStore/withWriter(acknowledgedThrough:_:)``.
public protocol LogAppender {
    /// What the store set aside from the end of the log when the writer section began: nearly always
    /// nothing; the torn tail of a writer that died mid-append.
    var recovered: [RecoveryReport] { get }

    /// Stores `blobs` durably, then appends `commit` as one unit, all or nothing, and returns once it
    /// is durable. A stream whose version is not what the commit expects throws
    /// ``EventLogError/versionConflict(stream:expected:actual:)`` and nothing is appended (blobs may
    /// stay: they are content, named by their hash, and harmless). A store with writers on several
    /// machines takes `claims` with the commit and refuses it when another stream holds one; a store
    /// with one writer ignores them.
    func append(_ commit: Commit, blobs: [[UInt8]], claims: [ClaimChange]) throws -> AppendResult

    /// Group commit: appends `commit` as ``append(_:blobs:claims:)`` does, but may return before it is
    /// durable. It is durable, with every commit appended before it, once ``sync()`` returns (or the
    /// writer section ends); until then it must not be reported as done, nor projected.
    func appendUnsynced(_ commit: Commit, blobs: [[UInt8]], claims: [ClaimChange]) throws -> AppendResult

    /// Whether commits may be decided ahead and given to ``appendUnsynced(_:)`` together: true where
    /// this writer is the log's only one, so that no commit can come between a decision and its
    /// append. A store whose teammates' commits can overtake a decision (a shared library) takes each
    /// commit as soon as it is decided, and throws ``LogStoreRace`` for the caller to decide it again.
    var takesCommitsDecidedAhead: Bool { get }

    /// Group commit of several commits: appends them in order as ``appendUnsynced(_:blobs:claims:)``
    /// one after another would, and stops at the first that fails, throwing a ``PartialAppend``: its
    /// error with the results of those before it, which stay appended. A store may first store every
    /// blob they carry, syncing each folder once for all of them rather than once a blob.
    func appendUnsynced(_ commits: [CommitToAppend]) throws -> [AppendResult]

    /// Makes every commit appended so far durable, with one fsync for all of them.
    func sync() throws

    /// ``sync()`` begun: a store may run it beside the caller, which can meanwhile prepare what it
    /// derives from the commits appended (their projection, uncommitted) but append nothing more.
    /// ``SyncInProgress/finish()`` then answers as ``sync()`` would; until it returns, no commit
    /// since the last sync may be reported as done, and nothing derived from them committed.
    func startSync() throws -> SyncInProgress

    /// A hint that commits about to be appended will store `contents` as blobs: a store may begin
    /// writing them now, on a thread of its own, so that those appends find them ready. Content no
    /// commit stores is not kept.
    func stage(_ contents: [[UInt8]])
}

extension LogAppender {
    /// A store whose sync cannot run beside its caller syncs now.
    public func startSync() throws -> SyncInProgress {
        try sync()
        return SyncInProgress {}
    }

    /// A store with nothing to share between commits appends them one after another.
    public func appendUnsynced(_ commits: [CommitToAppend]) throws -> [AppendResult] {
        var results: [AppendResult] = []
        for next in commits {
            do {
                results.append(try appendUnsynced(next.commit, blobs: next.blobs, claims: next.claims))
            } catch {
                throw PartialAppend(appended: results, error: error)
            }
        }
        return results
    }
}

/// A commit with the blobs it names and the claims it makes, as ``LogAppender/appendUnsynced(_:)`` takes it.
public struct CommitToAppend {
    public var commit: Commit
    public var blobs: [[UInt8]]
    public var claims: [ClaimChange]

    public init(_ commit: Commit, blobs: [[UInt8]], claims: [ClaimChange]) {
        (self.commit, self.blobs, self.claims) = (commit, blobs, claims)
    }
}

/// Commits appended in part (``LogAppender/appendUnsynced(_:)``): `appended` are, in order; the next
/// one failed with `error`, and none after it was tried.
public struct PartialAppend: Error {
    public var appended: [AppendResult]
    public var error: any Error

    public init(appended: [AppendResult], error: any Error) {
        (self.appended, self.error) = (appended, error)
    }
}

/// A sync under way (``LogAppender/startSync()``).
public final class SyncInProgress {
    private var wait: (() throws -> Void)?
    private var failure: (any Error)?

    init(_ wait: @escaping () throws -> Void) { self.wait = wait }

    /// Waits for the sync, the first time; from then on, answers at once. Throws the sync's error,
    /// every time it is asked: commits it did not make durable are not acknowledged.
    public func finish() throws {
        if let wait {
            self.wait = nil
            do { try wait() } catch { failure = error }
        }
        if let failure { throw failure }
    }
}

extension EventLog: LogStore {
    public func blob(_ ref: BlobRef) throws -> [UInt8] {
        try blobs.get(ref)
    }

    /// Woken when a writer (of this process or another) writes to the log's folder; where the folder
    /// cannot be watched, this waits out `timeout` and the reader looks again.
    @discardableResult
    public func waitForChange(timeout: Duration) -> Bool {
        folderWatch.wait(timeout: timeout)
    }

    public func cancelWaits() {
        folderWatch.cancel()
    }

    public func withWriter<Result>(
        acknowledgedThrough witness: (() -> LogPosition)?, _ body: (any LogAppender) throws -> Result
    ) throws -> Result {
        try write(acknowledgedThrough: witness) { writer in try body(writer) }
    }
}

extension LogWriter: LogAppender {
    /// Claims are not needed here: the writer lock lets one decision at a time see every stream.
    public func append(_ commit: Commit, blobs: [[UInt8]], claims: [ClaimChange]) throws -> AppendResult {
        try log.storeBlobs(of: [blobs]).throwingFailure()
        return try append(commit)
    }

    public func appendUnsynced(_ commit: Commit, blobs: [[UInt8]], claims: [ClaimChange]) throws -> AppendResult {
        do {
            return try appendUnsynced([CommitToAppend(commit, blobs: blobs, claims: claims)])[0]
        } catch let partial as PartialAppend {
            throw partial.error
        }
    }

    /// The lock keeps every other writer out until the section ends.
    public var takesCommitsDecidedAhead: Bool { true }

    /// Every commit's blobs are stored first, each shard synced once for all of them: they must be
    /// durable before the commits' frames are written, since the kernel may write a frame back at any
    /// moment, and a durable commit must never name a blob that is not.
    public func appendUnsynced(_ commits: [CommitToAppend]) throws -> [AppendResult] {
        precondition(log.isWriting, "a LogWriter is valid only inside EventLog.write")
        let stored = log.storeBlobs(of: commits.map(\.blobs))
        var results: [AppendResult] = []
        for next in commits.prefix(stored.commits) {
            do {
                results.append(try log.append(next.commit, durably: false))
            } catch {
                throw PartialAppend(appended: results, error: error)
            }
        }
        if let failure = stored.failure { throw PartialAppend(appended: results, error: failure) }
        return results
    }

    public func sync() throws {
        precondition(log.isWriting, "a LogWriter is valid only inside EventLog.write")
        try log.syncAppended()
    }

    /// The fsync runs on a thread of its own; the log is settled (its index saved, or the frames
    /// taken back) by ``SyncInProgress/finish()``, on the writer's thread.
    public func startSync() throws -> SyncInProgress {
        precondition(log.isWriting, "a LogWriter is valid only inside EventLog.write")
        let started = log.startSyncAppended()
        return SyncInProgress { [log] in try log.finishSyncAppended(started) }
    }

    /// Stages `contents` on a thread of its own (``BlobStaging``); their staged files are removed when
    /// the writer section ends, unless a commit stored them.
    public func stage(_ contents: [[UInt8]]) {
        precondition(log.isWriting, "a LogWriter is valid only inside EventLog.write")
        guard !contents.isEmpty else { return }
        log.staging?.finish()
        log.staging = BlobStaging(store: log.blobs, contents: contents)
    }
}

extension EventLog {
    /// Stores durably the blobs of commits about to be appended, each commit's in turn: a staged file
    /// is renamed into place, other content put; then each shard they went to is synced once. Returns
    /// how many commits, from the first, have every blob stored, and the error that stopped the next.
    func storeBlobs(of commits: [[[UInt8]]]) -> StoredBlobs {
        var shards = BlobShards()
        var stored = StoredBlobs(commits: 0, failure: nil)
        // Content that several of the commits name is stored once.
        var placed: Set<BlobRef> = []
        do throws(EventLogError) {
            for contents in commits {
                for bytes in contents {
                    let ref = BlobStore.reference(for: bytes)
                    guard placed.insert(ref).inserted else { continue }
                    let staged: StagedBlob
                    if let ready = staging?.take(ref) { staged = ready } else { staged = try blobs.stage(bytes, as: ref) }
                    try blobs.place(staged, syncingLater: &shards)
                }
                stored.commits += 1
            }
        } catch {
            stored.failure = error
        }
        do throws(EventLogError) {
            try shards.sync()
        } catch {
            stored = StoredBlobs(commits: 0, failure: error)
        }
        return stored
    }
}

/// What ``EventLog/storeBlobs(of:)`` stored: every blob of the first `commits` commits, durably.
struct StoredBlobs {
    var commits: Int
    var failure: EventLogError?

    func throwingFailure() throws(EventLogError) {
        if let failure { throw failure }
    }
}

/// A commit refused because another writer's commit reached the log first, on a store where the
/// writer decides on a copy of the log (a shared library): the store has since taken that commit into
/// the copy, so deciding again on it may well succeed. `refusal` is what the log said.
public struct LogStoreRace: Error, CustomStringConvertible {
    public var refusal: any Error
    public init(refusal: any Error) { self.refusal = refusal }
    public var description: String { "\(refusal)" }
}
