import EventLog
import Projections

extension Library {
    /// Runs `body` as the library's only writer (``LogStore/withWriter(acknowledgedThrough:_:)``),
    /// with the read models as a witness of what was acknowledged: if the log ends in a frame that
    /// cannot be read and a read model has seen a position past the head, that frame is damage and is
    /// never cut. The witness is read from the live read model as it is on disk, without opening or
    /// repairing it. What the writer sets aside is kept in ``recovered``.
    func write<Result>(_ body: (any LogAppender) throws -> Result) throws -> Result {
        try store.withWriter(acknowledgedThrough: { [path] in ReadModel.furthestCheckpoint(in: path) ?? .none }) { writer in
            recovered += writer.recovered
            return try body(writer)
        }
    }
}
