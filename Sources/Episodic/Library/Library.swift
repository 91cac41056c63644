import EventLog
import Foundation
import Projections

/// A podcast production library on disk: the event log (the truth), its blob store, and the read
/// models built from it. Everything the CLI does goes through here.
///
/// Reading never takes the writer lock; every change runs under it (see ``submit(_:actor:atomic:keepGoing:clock:progress:)``).
public final class Library {
    public let path: String
    public let log: EventLog
    private let progress: ((RebuildProgress) -> Void)?
    private var openedReadModel: ReadModel?
    /// What writers of this instance set aside from the end of the log since it was opened: the torn
    /// tail of a command that died while writing, moved into `quarantine/` (see ``RecoveryReport``).
    /// Empty nearly always; a caller that writes tells the user when it is not.
    public internal(set) var recovered: [RecoveryReport] = []

    /// Opens the library at `path`. It must exist: ``create(at:)`` makes one.
    ///
    /// `progress` hears of any replay the read models need (after an upgrade that changed a schema).
    public init(at path: String, lockTimeout: Duration = .seconds(10), progress: ((RebuildProgress) -> Void)? = nil) throws {
        self.path = path
        self.log = try EventLog(at: path, options: EventLog.Options(lockTimeout: lockTimeout))
        self.progress = progress
    }

    /// Creates an empty library at `path` with its read models, or opens the one already there.
    @discardableResult
    public static func create(at path: String) throws -> Library {
        _ = try EventLog.create(at: path)
        let library = try Library(at: path)
        _ = try library.readModel()
        return library
    }

    /// The read models, opened on first use. Opening rebuilds any projector whose schema changed.
    public func readModel() throws -> ReadModel {
        if let openedReadModel { return openedReadModel }
        let model = try ReadModel(library: path, log: log, progress: progress)
        openedReadModel = model
        return model
    }

    /// The read models, caught up with the log's head if they are behind it: a process may have
    /// appended and stopped before projecting. Catching up takes the writer lock; being current does not.
    public func currentReadModel(progress: ((RebuildProgress) -> Void)? = nil) throws -> ReadModel {
        let model = try readModel()
        try log.refresh()
        if try model.status(head: log.head).contains(where: { !$0.isCurrent }) {
            try log.write { _ in try model.catchUp(with: log, progress: progress) }
        }
        return model
    }
}
