import EventLog
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GRDB

extension ReadModel {
    /// The live generation: readers map the file (no copy per page read) and keep 32 MiB of pages.
    ///
    /// Other processes read and write it at the same time (a query while a command runs): a connection
    /// that finds it locked waits rather than failing at once.
    static func open(_ path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -32768")
        }
        return try DatabasePool(path: path, configuration: configuration)
    }

    /// A generation being built: it is thrown away if anything goes wrong, so it needs no journal and
    /// no syncs until ``install(_:in:)`` makes it durable.
    static func openShadow(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -65536")
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The file `read.sqlite` points at.
    static func liveGeneration(in library: String) throws -> String {
        let link = library + "/" + linkName
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: link)
        return target.hasPrefix("/") ? target : library + "/" + target
    }

    /// A file name for a new generation, numbered after every generation there is.
    static func nextGeneration(in library: String) throws -> String {
        let folder = library + "/" + generationsFolder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let numbers = try FileManager.default.contentsOfDirectory(atPath: folder)
            .compactMap { $0.hasSuffix(".sqlite") ? Int($0.dropLast(7)) : nil }
        let next = String((numbers.max() ?? 0) + 1)
        return folder + "/" + String(repeating: "0", count: max(0, 6 - next.count)) + next + ".sqlite"
    }

    /// Makes a new generation at `path`: a copy of `live` (or an empty database when nil), in which the
    /// `fresh` projectors get new tables and a checkpoint of 0, ready to be replayed.
    static func build(_ path: String, from live: DatabasePool?, projectors: [any Projector], fresh: [any Projector]) throws -> String {
        try? FileManager.default.removeItem(atPath: path)
        if let live {
            try live.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: Checkpoints.ddl)
            for projector in fresh {
                for table in projector.tables { try db.execute(sql: "DROP TABLE IF EXISTS \(table)") }
                try db.execute(sql: try projector.schema())
                try Checkpoints.set(projector.name, version: projector.schemaVersion, checkpoint: 0, in: db)
            }
        }
        try queue.close()
        return path
    }

    /// Makes `path` the live generation: flips the link (atomic rename of a new link over the old),
    /// makes that durable, and removes the other generations.
    static func install(_ path: String, in library: String) throws {
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try file.synchronize()
        try file.close()
        let link = library + "/" + linkName
        let temporary = link + ".new"
        try? FileManager.default.removeItem(atPath: temporary)
        let relative = generationsFolder + "/" + (path as NSString).lastPathComponent
        try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: relative)
        guard rename(temporary, link) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: link]) }
        let directory = Glibc.open(library, O_RDONLY | O_DIRECTORY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        // Readers still on an old generation keep their open files; new opens follow the link.
        let folder = library + "/" + generationsFolder
        let live = (path as NSString).lastPathComponent
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !name.hasPrefix(live) {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }

    /// How many touched entities a transaction writes at most (their states are in memory anyway).
    static let entitiesPerTransaction = 50_000

    /// Brings every projector of `database` from its checkpoint to the log's head; returns how many
    /// events were applied. Progress is told after each round of reading (at most `batchSize` events on
    /// each core); a transaction holds the rows of about `entitiesPerTransaction` entities at most.
    @discardableResult
    static func catchUp(
        _ database: some DatabaseWriter, projectors: [any Projector], log: EventLog, batchSize: Int,
        entitiesPerTransaction: Int = ReadModel.entitiesPerTransaction, progress: ((RebuildProgress) -> Void)?
    ) throws -> UInt64 {
        let head = log.head
        let stored = try database.read(Checkpoints.all)
        // Projectors at the same checkpoint share one fold.
        let groups = Dictionary(grouping: projectors.filter { stored[$0.name] != nil }) { stored[$0.name]!.checkpoint }
        var applied: UInt64 = 0
        let total = groups.keys.map { head.rawValue - min($0, head.rawValue) }.reduce(0, +)
        let started = ContinuousClock.now
        for (checkpoint, group) in groups.sorted(by: { $0.key < $1.key }) where checkpoint < head.rawValue {
            var fold = EntityFold(log: log, after: LogPosition(checkpoint))
            var position = LogPosition(checkpoint)
            while position < head {
                // Each transaction writes the final rows of the entities its events touched: an entity
                // touched again and again in a replay is written once, not once per batch.
                let plan = try fold.plan(
                    after: position, through: head, runLength: batchSize, entityLimit: entitiesPerTransaction)
                let changes = try fold.apply(plan, after: position, batchSize: batchSize) { reached in
                    guard let progress else { return }
                    let done = applied + reached.rawValue - checkpoint
                    let elapsed = ContinuousClock.now - started
                    let seconds = elapsed.seconds
                    progress(RebuildProgress(done: done, total: total, rate: seconds > 0 ? Double(done) / seconds : 0))
                }
                let writes = group.map { $0.prepareWrite(changes) }
                try database.write { db in
                    for prepared in writes { try prepared.write(db) }
                    try Checkpoints.advance(group.map(\.name), to: plan.end.rawValue, in: db)
                }
                position = plan.end
            }
            applied += head.rawValue - checkpoint
        }
        return applied
    }
}
