import Foundation
import Synchronization

/// The append-only event log of one library, with its stream index and blob store.
///
/// ```swift
/// let log = try EventLog.create(at: path)
/// try log.write { writer in
///     try writer.append(Commit(events: [event], expectations: [stream: .noStream],
///                              commandID: id, actor: "ana", timestamp: now))
/// }
/// try log.read(from: LogPosition(1)) { event in print(event.position, event.type) }
/// ```
///
/// Reading takes no lock and never waits: a reader sees the log as of its last ``refresh()``.
/// Writing happens inside ``write(_:)``, which holds the library's writer lock, first brings this
/// instance up to date with what other processes appended, and cuts off a torn tail if there is one.
///
/// An instance is not thread-safe; give each thread its own.
public final class EventLog {
    /// The on-disk format this build writes (the FORMAT file's number); it opens this one and older.
    public static let formatVersion = LibraryLayout.formatVersion

    public struct Options: Sendable {
        /// A segment stops taking commits once it reaches this many bytes (at most 4 GiB, the reach of
        /// the stream index's 32-bit frame offsets; larger values count as 4 GiB). With automatic
        /// compaction it stops sooner while the log is young (see ``EventLog/sealSize``).
        public var segmentSizeLimit: UInt64 = 8 << 20
        /// How long ``EventLog/write(_:)`` waits for another writer before it gives up.
        public var lockTimeout: Duration = .seconds(10)
        /// How many new index entries the writer gathers before it folds them into the sorted index.
        public var indexMergeThreshold = 8192
        /// How the writer compacts each segment it seals, before it lets the lock go; nil: never on its
        /// own, only through ``LogWriter/compact(_:)``.
        public var automaticCompaction: CompactionSettings? = .automatic

        public init(
            segmentSizeLimit: UInt64 = 8 << 20, lockTimeout: Duration = .seconds(10), indexMergeThreshold: Int = 8192,
            automaticCompaction: CompactionSettings? = .automatic
        ) {
            self.segmentSizeLimit = min(segmentSizeLimit, UInt64(UInt32.max))
            self.lockTimeout = lockTimeout
            self.indexMergeThreshold = max(indexMergeThreshold, 1)
            self.automaticCompaction = automaticCompaction
        }
    }

    /// The library folder.
    public let path: String
    public let options: Options
    /// Watches the segments' folder for ``waitForChange(timeout:)``, made at the first wait.
    var folderWatch: FolderWatch {
        watch.withLock { watch in
            if let watch { return watch }
            let made = FolderWatch(folder: path + "/log")
            watch = made
            return made
        }
    }
    private let watch = Mutex<FolderWatch?>(nil)
    /// Heavy content, referenced from events by sha256.
    public let blobs: BlobStore
    /// Folds of long streams kept beside the log, a cache each command checks against it.
    public let snapshots: StreamSnapshots
    /// What stood in the place of a derived file or folder (the stream index, the segment catalog, the
    /// kept folds) and was set aside so that it could be made again, since this instance was opened.
    /// Empty nearly always; a caller tells the user when it is not.
    public var setAsideDerivedFiles: [SetAsideDerivedFile] { setAsides.all }
    let setAsides: SetAsideDerivedFiles
    var layout: LibraryLayout

    /// The newest acknowledged event this instance knows of; ``LogPosition/none`` for an empty log.
    public internal(set) var head: LogPosition = .none
    var segments: [Segment] = []
    let index: StreamIndex

    /// The buffers of recovery, verification and compaction, which call no user code in between.
    let maintenance = FrameReader(readAhead: FrameReader.scanReadAhead)
    var readFiles: [UInt32: File] = [:]
    /// The segments as the last listing read them, so that the listing under the writer lock, just
    /// after the one made at open, reads no header again (see ``ListedSegment``).
    var listed: [UInt32: ListedSegment] = [:]
    /// The compacted segments' headers as kept in `index/` (see ``SegmentCatalog``), read at the first
    /// listing; and the catalog the last listing found true.
    var catalog: SegmentCatalog?
    var listedCatalog: SegmentCatalog?
    /// Each segment's inode when the log was last listed, by number: a read that meets what looks like
    /// damage asks whether a compaction has replaced a segment since (``segmentsReplacedSinceListing()``).
    var listedInodes: [UInt32: UInt64] = [:]
    /// The files of an interrupted compaction (`….compacting`) that the last listing found in `log/`.
    var compactionLeftovers: [String] = []

    /// Streams' versions as last seen, so a writer decodes a stream's last event once, not per commit.
    /// Cleared whenever the log changes under this instance (another writer, a cut tail, a rebuild).
    var knownVersions: [StreamID: Int] = [:]
    /// The hash of the last commit, so that a writer reads it back once, not per commit.
    var chainTip: ChainTip?
    /// The hashes of the commits this instance appended, and of the commit each followed, by the position
    /// each ends at: a projection that reads what was just appended checks its chain from there without
    /// reading back. Cleared whenever the log changes under this instance.
    var appendedCommitEnds: [LogPosition: CommitHash] = [:]
    /// The head this instance last wrote into `HEAD` (see ``recordHead()``).
    var recordedHead: LogPosition?
    /// Frames of sealed segments that stream reads decoded, so that reads meeting one again copy it.
    let decodedFrames = DecodedFrames()
    /// Bytes at the end of the log that are not a whole commit, as the last catch-up found them; nil when
    /// the log ends cleanly. A reader leaves them; the next writer sets them aside.
    public internal(set) var unreadableTail: UnreadableTail?
    /// Why the last automatic compaction stopped (nil when it went well, or none ran): it changed nothing
    /// it did not finish, and the next writer tries again.
    public internal(set) var automaticCompactionFailure: EventLogError?
    /// What the writer does with a bad last frame that something shows was acknowledged.
    var acknowledgedTail = AcknowledgedTail.refuse(witness: nil)

    enum AcknowledgedTail {
        /// It is damage: every write refuses. `witness` is the writer's own evidence from outside the log
        /// (see ``EventLog/write(acknowledgedThrough:_:)``).
        case refuse(witness: (() -> LogPosition)?)
        /// The user chose to give it up (``EventLog/acceptLoss(acknowledgedThrough:recording:)``): it is
        /// set aside like a torn tail.
        case discard
    }

    /// The hold of the writer lock this instance has under way (``write(acknowledgedThrough:_:)``,
    /// ``withWriterLock(_:)``, ``acceptLoss(acknowledgedThrough:recording:)``): a number no other hold in this process has had;
    /// nil while it holds none. Only the holder of the lock changes the library, so what was read or
    /// written under a hold stays true until the hold ends.
    public private(set) var writerLockHold: Int?
    private static let writerLockHolds = Atomic<Int>(0)

    /// Ends the hold ``holdWriterLock(recordingPid:)`` began; the caller then lets `lock` go.
    func endWriterLockHold() { writerLockHold = nil }

    /// Takes the writer lock for one hold (see ``writerLockHold``), released when the lock is.
    func holdWriterLock(recordingPid: Bool = true) throws(EventLogError) -> WriterLock {
        let lock = try WriterLock.acquire(path: layout.lockFile, library: path, timeout: options.lockTimeout, recordingPid: recordingPid)
        writerLockHold = Self.writerLockHolds.add(1, ordering: .relaxed).newValue
        return lock
    }

    // Writer state, valid only inside `write`.
    var isWriting = false
    var appendFile: (segment: UInt32, file: File)?
    /// Where the first frame written since the last sync starts (always in the last segment: sealing a
    /// segment syncs it); nil when everything appended is durable.
    var unsyncedFrom: (segment: UInt32, offset: UInt64)?
    /// Blobs being stored ahead of the commits that will name them (``LogWriter/stage(_:)``).
    var staging: BlobStaging?
    var lineBuffer: [UInt8] = []
    var frameBuffer: [UInt8] = []

    /// Creates a new, empty library at `path` (and its parent folders), or opens the one already there.
    public static func create(at path: String, options: Options = Options()) throws(EventLogError) -> EventLog {
        _ = try LibraryLayout.create(at: path)
        return try EventLog(at: path, options: options)
    }

    /// Creates a new, empty library at `path` whose log continues the library `id`: the local copy of a
    /// shared library. An existing library is opened as it is.
    public static func create(at path: String, id: LibraryID, options: Options = Options()) throws(EventLogError) -> EventLog {
        _ = try LibraryLayout.create(at: path, id: id)
        return try EventLog(at: path, options: options)
    }

    /// Writes a small file of the library's own beside `FORMAT` and `ID` (a shared library's `SHARED`),
    /// whole or not at all: a temporary file, synced, renamed into place, then the folder synced; never
    /// through a symbolic link.
    public func replaceFile(named name: String, with bytes: [UInt8]) throws(EventLogError) {
        try Folder.library(layout.root).replace(name, with: bytes)
    }

    /// The library's id, where its hash chain starts; nil for a library written before ids (format 1)
    /// that no command has written to since.
    public var libraryID: LibraryID? { layout.readID() }

    /// Opens an existing library for reading. It changes nothing on disk, and takes no lock.
    public init(at path: String, options: Options = Options()) throws(EventLogError) {
        self.layout = try LibraryLayout.open(at: path)
        self.path = path
        self.options = options
        self.blobs = BlobStore(directory: layout.blobDirectory)
        let setAsides = SetAsideDerivedFiles()
        self.setAsides = setAsides
        self.snapshots = StreamSnapshots(directory: layout.snapshotDirectory, noting: setAsides)
        self.index = StreamIndex(directory: layout.indexDirectory, mergeThreshold: options.indexMergeThreshold, noting: setAsides)
        _ = try synchronize(repair: false)
    }

    /// Catches up with commits other processes appended since this instance last looked.
    public func refresh() throws(EventLogError) {
        _ = try synchronize(repair: false)
    }

    /// Runs `body` as the library's only writer.
    ///
    /// Takes the writer lock (waiting up to ``Options/lockTimeout``), catches up with the log, and sets
    /// aside a torn tail left by a crash into `quarantine/`; ``LogWriter/recovered`` says what. Bytes that
    /// something shows were acknowledged are never cut: the stream index, the head record (`HEAD`), or
    /// `acknowledgedThrough`, the highest position that state kept outside the log (a read model's
    /// checkpoint) has seen. Then writing is refused with
    /// ``EventLogError/damagedAcknowledgedCommit(segment:offset:reason:)``.
    ///
    /// Writing is refused too when the log ends cleanly but before a position the head record or
    /// `acknowledgedThrough` shows (``EventLogError/lostCommits(lost:witness:)``), when the commit the
    /// head record names hashes otherwise (``EventLogError/alteredCommit(position:witness:found:recorded:)``),
    /// and when the hash chain breaks in a segment no writer has checked as it now is
    /// (``EventLogError/brokenChain(position:reason:)``). The lock is held until `body` returns.
    @discardableResult
    public func write<Result>(
        acknowledgedThrough witness: (() -> LogPosition)? = nil, _ body: (LogWriter) throws -> Result
    ) throws -> Result {
        precondition(!isWriting, "EventLog.write is not reentrant")
        let lock = try holdWriterLock()
        isWriting = true
        acknowledgedTail = .refuse(witness: witness)
        defer {
            writerLockHold = nil
            staging?.finish()
            staging = nil
            isWriting = false
            acknowledgedTail = .refuse(witness: nil)
            appendFile = nil
            withExtendedLifetime(lock) {}
        }
        let recovered = try synchronize(repair: true)
        // Nothing is appended to a log that lacks or changed what was acknowledged.
        let record = HeadRecord.load(libraryAt: path).record
        // The read models, the other witness, are checked by their own catch-up (see `ReadModel`).
        try checkAcknowledged(record, witness: nil)
        try checkChangedSegments(vouchedBy: record)
        try removeCompactionLeftovers()
        removeAbandonedFiles()
        persistIndex()
        saveSegmentCatalog()
        let result: Result
        do {
            result = try body(LogWriter(log: self, recovered: recovered))
        } catch {
            // Commits appended before the failure are whole and chained: they stay, durably.
            try? syncAppended()
            throw error
        }
        try syncAppended()
        compactSealedSegments()
        return result
    }

    /// Runs `body` holding the writer lock, after catching up with the log, without repairing or
    /// appending anything: for keeping derived state (read models) in step with the log while no
    /// command writes. It never changes the log, and it works on a library this process cannot write,
    /// as long as its `LOCK` file exists (otherwise it throws ``EventLogError/libraryNotWritable(path:reason:)``).
    @discardableResult
    public func withWriterLock<Result>(_ body: () throws -> Result) throws -> Result {
        precondition(!isWriting, "EventLog.withWriterLock cannot be used inside EventLog.write")
        let lock = try holdWriterLock(recordingPid: false)
        defer {
            writerLockHold = nil
            withExtendedLifetime(lock) {}
        }
        _ = try synchronize(repair: false)
        return try body()
    }

    /// Each segment's generation, which the sorted index remembers to notice compaction.
    var generations: [UInt32: UInt32] {
        Dictionary(uniqueKeysWithValues: segments.map { ($0.number, $0.header.generation) })
    }

    /// Opens the segments that hold `position` and what follows, so that this instance's later reads
    /// see these files even if a compaction renames new ones over them: two passes over the same
    /// stretch read the same bytes. Until the next ``refresh()``.
    public func pinSegments(from position: LogPosition = LogPosition(1)) throws(EventLogError) {
        let first = segments.lastIndex { $0.header.firstPosition <= position } ?? 0
        for segment in segments[first...] { _ = try file(forSegment: segment.number) }
    }

    func file(forSegment number: UInt32) throws(EventLogError) -> File {
        if let file = readFiles[number] { return file }
        let file = try File.openForReading(layout.segmentPath(number))
        readFiles[number] = file
        return file
    }
}

/// The write side of a library, handed out by ``EventLog/write(_:)`` while the writer lock is held.
/// Do not keep it past the closure.
public struct LogWriter {
    let log: EventLog

    /// What was set aside from the end of the log when the lock was taken: usually nothing, one torn
    /// commit after a crash.
    public let recovered: [RecoveryReport]

    init(log: EventLog, recovered: [RecoveryReport]) {
        self.log = log
        self.recovered = recovered
    }

    /// Appends `commit` as one frame, all or nothing, and returns once it is on disk (fsynced).
    ///
    /// Throws ``EventLogError/versionConflict(stream:expected:actual:)`` when a stream's version is not
    /// what the commit expects; nothing is written then.
    @discardableResult
    public func append(_ commit: Commit) throws(EventLogError) -> AppendResult {
        precondition(log.isWriting, "a LogWriter is valid only inside EventLog.write")
        return try log.append(commit)
    }

    /// The version a stream has now (0 when it has no events).
    public func version(of stream: StreamID) throws(EventLogError) -> Int {
        try log.currentVersion(of: stream)
    }

    /// Recompresses sealed segments into large frames. See ``CompactionSettings``.
    public func compact(_ settings: CompactionSettings = CompactionSettings()) throws(EventLogError) -> CompactionReport {
        precondition(log.isWriting, "a LogWriter is valid only inside EventLog.write")
        return try log.compact(settings)
    }

    /// The log, for reading while the lock is held.
    public var reader: EventLog { log }
}
