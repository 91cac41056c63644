import EventLog
import Foundation
import PostgresLog
import Projections

/// A podcast production library on disk: the event log (the truth), its blob store, and the read
/// models built from it. Everything the CLI does goes through here.
///
/// Reading never takes the writer lock to change the log, and never needs write access: a query
/// brings the read models up to date when it can (holding the lock, which repairs nothing), and
/// otherwise answers from what they hold, saying how far behind that is. Every change runs under the
/// lock (see ``submit(_:actor:atomic:keepGoing:timingCreations:clock:progress:groupLimit:acknowledged:)``).
public final class Library {
    /// This release of Episodic.
    public static let version = "0.2.0"
    /// The library format this build writes, and the newest it opens.
    public static let formatVersion = EventLog.formatVersion

    public let path: String
    /// The log: the truth, behind the facade. Apps reach it through the library's calls.
    package let log: EventLog
    /// Where commits go and where the decisions read their streams and content: the log above, for a
    /// library in a folder; for a shared library, the server, with the log above as this machine's copy.
    package let store: any LogStore
    private let progress: ((RebuildProgress) -> Void)?
    private let onNotice: ((ReadModelNotice) -> Void)?
    /// Opened to read only: nothing in the library is written, not even the read models' catching up.
    private let readOnly: Bool
    var openedReadModel: ReadModel?
    /// Read models still being opened on another thread (``openReadModels(atFirstUse:)``): waited for
    /// and taken at their first use, or by a change once it holds the writer lock.
    var readModelsOpening: (() -> ReadModelFiles?)?
    /// What writers of this instance set aside from the end of the log since it was opened: the torn
    /// tail of a command that died while writing, moved into `quarantine/` (see `RecoveryReport`).
    /// Empty nearly always; a caller that writes tells the user when it is not.
    public internal(set) var recovered: [RecoveryReport] = []
    /// What stood in the place of a file or folder derived from the log (the stream index, the segment
    /// catalog, the kept folds) and was set aside so that it could be made again, since this instance
    /// was opened (see `SetAsideDerivedFile`). Empty nearly always; a caller tells the user when it is not.
    public var setAsideDerivedFiles: [SetAsideDerivedFile] { log.setAsideDerivedFiles }
    /// What the read models went through in this instance's life (rebuilt, set aside, behind, replayed
    /// in a temporary folder), in order.
    public private(set) var notices: [ReadModelNotice] = []

    /// Opens the library at `path`. It must exist: ``create(at:)`` makes one.
    ///
    /// `progress` hears of any replay the read models need (after an upgrade that changed a schema);
    /// `notice` of anything a user should know about the read models the answers come from.
    public convenience init(
        at path: String, lockTimeout: Duration = .seconds(10), progress: ((RebuildProgress) -> Void)? = nil,
        notice: ((ReadModelNotice) -> Void)? = nil
    ) throws {
        try self.init(at: path, lockTimeout: lockTimeout, readOnly: false, progress: progress, notice: notice)
    }

    /// `readOnly`: the library is read as another user's would be (read models behind the log answer as
    /// they stand; one that needs a replay is replayed in a temporary folder), and a shared library
    /// answers from this machine's copy without asking its server. Only for reading: nothing guards
    /// the calls that change the library (see ``names(at:episodes:)``).
    init(
        at path: String, lockTimeout: Duration, readOnly: Bool, progress: ((RebuildProgress) -> Void)?,
        notice: ((ReadModelNotice) -> Void)?
    ) throws {
        self.path = path
        self.readOnly = readOnly
        let log = try EventLog(at: path, options: EventLog.Options(lockTimeout: lockTimeout))
        self.log = log
        if !readOnly, let shared = try SharedLibraryFile.load(library: path) {
            self.store = SharedStore(local: log, endpoint: try shared.endpoint(), schema: shared.schema, lockWait: lockTimeout)
        } else {
            self.store = log
        }
        self.progress = progress
        self.onNotice = notice
    }

    /// Creates an empty library at `path` with its read models, or opens the one already there.
    @discardableResult
    public static func create(at path: String) throws -> Library {
        _ = try EventLog.create(at: path)
        let library = try Library(at: path)
        _ = try library.readModel()
        return library
    }

    /// Opens the read models now rather than at the first query, so that a replay they need (after an
    /// upgrade that changed a schema, or when the log does not vouch for them) happens here, reported to
    /// the `progress` handler given at open.
    public func openReadModels() throws {
        _ = try readModel()
    }

    /// The first half of opening the read models of the library at `path`: what needs nothing from its
    /// log, and takes longest, so that it can run while the log is opened (the command line runs it
    /// while it parses the command). Nil for a shared library, whose blobs come through its server.
    /// Changes nothing in the library, whatever it finds.
    package static func openReadModelFiles(at path: String) throws -> ReadModelFiles? {
        guard try SharedLibraryFile.load(library: path) == nil else { return nil }
        return ReadModelFiles(
            files: try ReadModel.openFiles(library: path, projectors: Projectors.standard(blobs: BlobReader(BlobStore(library: path)))))
    }

    /// A library's read models opened as far as they can be without its log (``openReadModelFiles(at:)``).
    package struct ReadModelFiles: Sendable {
        fileprivate let files: ReadModel.Files
    }

    /// Opens the read models from `files` (``openReadModelFiles(at:)`` of this library) if they can be
    /// used as they are, and says whether they are open: when they would first need a rebuild, a
    /// repair or a replay, they are left for ``openReadModels()``. Changes nothing in the library.
    package func openReadModels(from opened: ReadModelFiles) throws -> Bool {
        if openedReadModel != nil { return true }
        guard opened.files.library == path, !readOnly, !(store is SharedStore) else { return false }
        openedReadModel = try ReadModel.openIfSound(opened.files, log: log, notice: { [weak self] in self?.tell($0) })
        return openedReadModel != nil
    }

    /// Hands over read models that another thread is opening (``openReadModelFiles(at:)``), to be waited
    /// for at their first use rather than now: a change takes the writer lock and catches up with the
    /// log meanwhile (see `runWritePath`). Files that cannot be used as they are leave the read models
    /// to be opened in full then, as ``readModel()`` opens them.
    /// Not for a shared library or one opened to read only, which ``openReadModels(from:)`` never uses.
    package func openReadModels(atFirstUse opening: @escaping () -> ReadModelFiles?) {
        guard openedReadModel == nil, !readOnly, !(store is SharedStore) else { return }
        readModelsOpening = opening
    }

    /// Whether read models handed over by ``openReadModels(atFirstUse:)`` are still to be taken.
    var readModelsStillOpening: Bool { readModelsOpening != nil }

    /// Waits for the read models handed over by ``openReadModels(atFirstUse:)``, if any, and opens them
    /// if they can be used as they are. Says whether the read models are open.
    func takeOpeningReadModels() -> Bool {
        if let opening = readModelsOpening {
            readModelsOpening = nil
            if let files = opening() { _ = try? openReadModels(from: files) }
        }
        return openedReadModel != nil
    }

    /// The read models, opened on first use. Opening rebuilds any that the log does not vouch for, and
    /// any projector whose schema changed.
    package func readModel() throws -> ReadModel {
        if takeOpeningReadModels(), let openedReadModel { return openedReadModel }
        let model = try ReadModel(
            library: path, log: log, projectors: projectors(), readOnly: readOnly, progress: progress,
            notice: { [weak self] in self?.tell($0) })
        openedReadModel = model
        return model
    }

    /// The projectors of this library's read models, reading its blobs: from the folder, or, for a
    /// shared library, from the server too.
    private func projectors() -> [any Projector] {
        let blobs = (store as? SharedStore).map { shared in BlobReader { [blobs = shared.blobs] in try blobs.blob($0) } }
            ?? BlobReader(log.blobs)
        return Projectors.standard(blobs: blobs)
    }

    /// The read models, caught up with the log's head if they are behind it (a process may have appended
    /// and stopped before projecting) and this process may write them. Catching up holds the writer
    /// lock and changes nothing but the read models; being current takes no lock. When they cannot be
    /// caught up (another user's library, a read-only file system, a full disk, a writer holding the lock
    /// too long), the answers come from what they hold, and a `ReadModelNotice.behind(events:reason:)`
    /// says how far behind.
    package func currentReadModel(progress: ((RebuildProgress) -> Void)? = nil) throws -> ReadModel {
        let model = try readModel()
        try refreshLog()
        do {
            try catchUpIfBehind(model, progress: progress)
        } catch where ReadModelFailure.isMalformed(error) {
            try model.recover(fromMalformed: error, log: log, lockHeld: false, progress: progress ?? self.progress)
            try catchUpIfBehind(model, progress: progress)
        }
        return model
    }

    /// Runs a query on the current read models. One that SQLite finds malformed on the way is set aside
    /// and rebuilt from the log, and the query runs again.
    package func query<Result>(_ body: (ReadModel) throws -> Result) throws -> Result {
        let model = try currentReadModel()
        do {
            return try body(model)
        } catch where ReadModelFailure.isMalformed(error) && !model.isTemporary {
            try model.recover(fromMalformed: error, log: log, lockHeld: false, progress: progress)
            return try body(model)
        }
    }

    private func catchUpIfBehind(_ model: ReadModel, progress: ((RebuildProgress) -> Void)?) throws {
        func behind() throws -> UInt64 { try model.status(head: log.head).map(\.eventsBehind).max() ?? 0 }
        guard try behind() > 0 else { return }
        if model.isTemporary {
            try model.catchUp(with: log, asWriter: false, progress: progress)
            return
        }
        if case .readOnly(let reason) = model.access {
            return tell(.behind(events: try behind(), reason: reason))
        }
        do {
            try log.withWriterLock { try model.catchUp(with: log, asWriter: false, progress: progress) }
        } catch where ReadModelFailure.isRefusalToWrite(error) {
            tell(.behind(events: try behind(), reason: "\(error)"))
        }
    }

    /// Brings the log up to date for a reader: what other processes appended, and for a shared library
    /// what teammates appended on the server; when the server cannot be reached, a notice says the
    /// answers come from this machine's copy, and how old it is.
    func refreshLog() throws {
        try store.refresh()
        guard let shared = store as? SharedStore else { return }
        if let problem = shared.passwordFileProblem { tellOnce(.passwordFileIgnored(problem)) }
        if case .failed(let reason) = shared.lastContact { tellOnce(.offline(reason: reason, asOf: try lastEventTime())) }
    }

    /// When the copy's last event was written: how old a shared library's answers are when its server
    /// cannot be reached.
    private func lastEventTime() throws -> Timestamp? {
        guard log.head != .none else { return nil }
        var time: Timestamp?
        try log.read(from: log.head, through: log.head) { time = $0.timestamp }
        return time
    }

    func tell(_ notice: ReadModelNotice) {
        notices.append(notice)
        onNotice?(notice)
    }

    /// Tells `notice` unless this instance told it already: a command that reads the log twice says
    /// that its answers come from the copy once.
    func tellOnce(_ notice: ReadModelNotice) {
        guard !notices.contains(notice) else { return }
        tell(notice)
    }
}
