import Foundation
import EventLog
import Projections

extension Library {
    /// DESIGN.md's write path, the one every change takes (submit, undo, redo): take the writer lock;
    /// catch the read models up to the head (rebuilding a malformed one from the log); run `body`, which
    /// loads states and facts through the ``Workspace``, decides, stores blobs and appends through the
    /// writer; sync what it appended unsynced, and project it meanwhile, committing the projection
    /// only once the sync returns.
    ///
    /// On a shared library, a commit a teammate's overtook (``LogStoreRace``) is decided again on the
    /// copy that now holds theirs, up to ``decisionAttempts`` times; `body` must then have appended
    /// nothing, and a batch that appends as it goes retries each command itself.
    ///
    /// A read model that SQLite finds malformed while `body` runs is set aside and rebuilt before the
    /// error goes on. Once `body` returns, what it appended is acknowledged: a read model that cannot then
    /// be brought up to date does not fail the change; the error is returned as `readModelError`, and
    /// the next command or query catches up.
    ///
    /// `continuing` is the workspace of the caller's previous section and the head it left: kept when
    /// nothing came into the log since (no other writer's commit), so that a batch run in groups does
    /// not read its streams again for each group.
    ///
    /// Read models still being opened on another thread are taken once the lock is held and the log
    /// caught up, which need nothing from them; when they cannot be used as they are, the lock is let
    /// go, they are opened in full (a rebuild or a replay takes the lock itself), and the path starts
    /// again.
    func runWritePath<Result>(
        continuing previous: (workspace: Workspace, head: LogPosition)? = nil,
        _ body: (any LogAppender, Workspace) throws -> Result
    ) throws -> (result: Result, readModelError: (any Error)?) {
        let opened = readModelsStillOpening ? nil : try readModel()
        do {
            return try write { writer in
                let model: ReadModel
                if let opened {
                    model = opened
                } else if takeOpeningReadModels() {
                    model = try readModel()
                } else {
                    throw ReadModelsNeedOpening()
                }
                return try runLocked(model, writer: writer, continuing: previous, body)
            }
        } catch is ReadModelsNeedOpening {
            return try runWritePath(continuing: previous, body)
        }
    }

    /// Read models handed over unfinished that turn out to need more than opening: a rebuild or a
    /// replay, which takes the writer lock.
    private struct ReadModelsNeedOpening: Error {}

    /// The write path from the writer lock on, with the read models open.
    private func runLocked<Result>(
        _ model: ReadModel, writer: any LogAppender, continuing previous: (workspace: Workspace, head: LogPosition)?,
        _ body: (any LogAppender, Workspace) throws -> Result
    ) throws -> (result: Result, readModelError: (any Error)?) {
        do {
            try model.catchUp(with: log)
        } catch where ReadModelFailure.isMalformed(error) {
            try model.recover(fromMalformed: error, log: log, lockHeld: true)
        }
        model.removeLeftovers()
        var result: Result?
        var sync: SyncInProgress?
        var known: KnownStates?
        var attempt = 1
        while result == nil {
            do {
                let kept = previous.flatMap { $0.head == store.head && $0.workspace.readModel === model ? $0.workspace : nil }
                let workspace = kept ?? Workspace(log: store, readModel: model)
                workspace.beginChanges(at: log.head)
                result = try body(writer, workspace)
                known = workspace.statesBeforeChanges
                sync = try writer.startSync()
            } catch is LogStoreRace where attempt < Self.decisionAttempts {
                // A teammate's commit came first; the copy now holds it: decide again on it.
                Self.pauseAfterRace(attempt)
                attempt += 1
                try model.catchUp(with: log)
            } catch let race as LogStoreRace {
                throw race.refusal
            } catch {
                recoverIfMalformed(error, model)
                throw error
            }
        }
        // What `body` appended is projected while the disk syncs it, and durable before anything
        // projected from it is committed. A failed sync fails the change, whatever the projection did.
        do {
            try model.catchUp(with: log, known: known, beforeCommit: sync!.finish)
            try sync!.finish()
            return (result!, nil)
        } catch {
            try sync!.finish()
            recoverIfMalformed(error, model)
            return (result!, error)
        }
    }

    /// How many times a change is decided when a shared library's teammates keep overtaking it (a
    /// ``LogStoreRace``) before the refusal is the answer.
    static let decisionAttempts = 16

    /// Waits a random time before a raced change is decided again, up to twice as long after each race
    /// (1, 2, 4 ... 64 milliseconds: 0.64 s in all at most, before the last attempt). Writers that
    /// overtook each other once would otherwise meet again in step; and a writer whose teammates keep
    /// taking the next episode number (three machines creating episodes in one podcast) lost ten
    /// rounds in a few milliseconds, refused as busy, where waiting longer lets it outlast them.
    static func pauseAfterRace(_ attempt: Int) {
        let longest = Double(1 << min(max(attempt, 1) - 1, 6))
        Thread.sleep(forTimeInterval: Double.random(in: 0..<longest) / 1000)
    }

    /// Sets aside and rebuilds `model` if `error` is SQLite finding it malformed, for the next command;
    /// any other error, and a rebuild that fails, leave it for the next command to find.
    func recoverIfMalformed(_ error: any Error, _ model: ReadModel) {
        if ReadModelFailure.isMalformed(error) { try? model.recover(fromMalformed: error, log: log, lockHeld: true) }
    }
}
