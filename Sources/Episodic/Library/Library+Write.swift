import EventLog
import Projections

extension Library {
    /// Runs `body` as the library's only writer (``EventLog/write(acknowledgedThrough:_:)``), with the
    /// read models as a witness of what was acknowledged: if the log ends in a frame that cannot be read
    /// and a read model has seen a position past the head, that frame is damage and is never cut. What
    /// the writer sets aside is kept in ``recovered``.
    func write<Result>(_ body: (LogWriter) throws -> Result) throws -> Result {
        let model = try? readModel()
        return try log.write(acknowledgedThrough: { Self.highestCheckpoint(of: model) }) { writer in
            recovered += writer.recovered
            return try body(writer)
        }
    }

    /// The furthest position any projector's checkpoint stands at; none when the read models cannot say.
    private static func highestCheckpoint(of model: ReadModel?) -> LogPosition {
        guard let model, let statuses = try? model.status(head: .none) else { return .none }
        return statuses.map(\.checkpoint).max() ?? .none
    }
}
