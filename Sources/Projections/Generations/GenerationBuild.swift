import EventLog
import Foundation
import GRDB

/// New files for the projectors a rebuild replays, in a generation's folder: each claimed, made with its
/// projector's tables and a checkpoint of 0, and written through one shadow connection that attaches
/// them all (see ``ReadModel/openShadow(_:projectors:)``). ``finish()`` makes them durable, ready for a
/// manifest to name them (``ReadModel/install(_:keeping:in:projectors:)``); ``discard()`` removes them.
///
/// Only the projectors replayed get files: the others' files stay as they are, and no row of theirs is
/// read or copied.
final class GenerationBuild {
    /// Each replayed projector's new file, by projector name.
    let files: [String: String]
    let claims: [GenerationClaim]
    let projectors: [any Projector]
    private var shadow: DatabaseQueue?
    /// Set once the live link names a manifest naming these files: then ``discard()`` leaves them.
    var isLive = false

    init(in folder: String, replaying projectors: [any Projector]) throws {
        self.projectors = projectors
        var claims: [GenerationClaim] = []
        do {
            for projector in projectors {
                let claim = try ReadModel.newFile(in: folder, for: projector.name)
                claims.append(claim)
                try Self.make(claim.path, for: projector)
            }
            self.claims = claims
            files = Dictionary(uniqueKeysWithValues: zip(projectors.map(\.name), claims.map(\.path)))
            shadow = try ReadModel.openShadow(files, projectors: projectors)
            try shadow?.writeWithoutTransaction { db in for projector in projectors { try projector.beginReplay(db) } }
        } catch {
            for claim in claims { ReadModel.discard(claim.path) }
            throw error
        }
    }

    /// The connection the replay writes through; nil once finished.
    var database: DatabaseQueue? { shadow }

    /// Replays the log into the files, from their checkpoints through `end` (the log's head when nil),
    /// and has each projector finish its replay, so that its rows can be read.
    func catchUp(_ log: EventLog, through end: LogPosition? = nil, batchSize: Int, progress: ((RebuildProgress) -> Void)?) throws {
        guard let shadow else { return }
        try ReadModel.catchUp(shadow, projectors: projectors, log: log, through: end, batchSize: batchSize, progress: progress)
        try shadow.write { db in for projector in projectors { try projector.finishReplay(db) } }
    }

    /// Closes the shadow connection, and puts every file in WAL mode (keeping its WAL and index when it
    /// closes, as read-only readers need them) and on disk.
    func finish() throws {
        try shadow?.close()
        shadow = nil
        for path in files.values.sorted() {
            let queue = try DatabaseQueue(path: path, configuration: ReadModel.keptWALConfiguration)
            try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
            try queue.close()
            try syncFile(path)
        }
    }

    /// Removes every file made (a failed or abandoned build), unless they became live.
    func discard() {
        try? shadow?.close()
        shadow = nil
        guard !isLive else { return }
        for path in files.values { ReadModel.discard(path) }
    }

    /// A projector's new file: its checkpoints table, its tables, and a checkpoint of 0.
    private static func make(_ path: String, for projector: any Projector) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF") }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in
            try db.execute(sql: try Checkpoints.ddl())
            try db.execute(sql: try projector.schema())
            try Checkpoints.set(projector.name, version: projector.schemaVersion, checkpoint: 0, in: db, schema: "main")
        }
        try queue.close()
    }
}
