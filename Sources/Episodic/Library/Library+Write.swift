import EventLog
import Projections

extension Library {
    /// Runs `body` as the library's only writer (``LogStore/withWriter(acknowledgedThrough:_:)``),
    /// with the read models as a witness of what was acknowledged (``acknowledgedWitness``). What the
    /// writer sets aside is kept in ``recovered``.
    func write<Result>(_ body: (any LogAppender) throws -> Result) throws -> Result {
        try store.withWriter(acknowledgedThrough: acknowledgedWitness) { writer in
            recovered += writer.recovered
            return try body(writer)
        }
    }

    /// Runs `body` as the writer of this folder's own log, for work on its files rather than a commit
    /// (compaction): on a shared library, this machine's copy, without asking the server anything.
    func writeLocalLog<Result>(_ body: (LogWriter) throws -> Result) throws -> Result {
        try log.write(acknowledgedThrough: acknowledgedWitness) { writer in
            recovered += writer.recovered
            return try body(writer)
        }
    }

    /// If the log ends in a frame that cannot be read and a read model has seen a position past the
    /// head, that frame was acknowledged: it is damage and is never cut. Read from the live read model
    /// as it is on disk, without opening or repairing it.
    var acknowledgedWitness: () -> LogPosition {
        { [path] in ReadModel.furthestCheckpoint(in: path) ?? .none }
    }
}
