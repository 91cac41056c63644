/// What a user can decide about the log itself.
public enum LogCommand: Hashable, Sendable {
    /// Goes on without acknowledged commits the log lost, recording what was lost (see ``LossAccepted``).
    case acceptLoss(LossAccepted)
}

/// The log's own stream folded: how many losses were accepted.
public struct LogState: Hashable, Sendable {
    public var acceptedLosses = 0

    public init() {}
}

/// The log's own aggregate: one stream, `log`, for what the library's keepers decided about the log
/// itself rather than about its podcasts. No read model shows it; `episodic log` does.
public enum LogDecider: Decider {
    /// The name of the one stream of the log's own events.
    public static let streamName = "log"
    public static let initial = LogState()

    /// The events `command` produces, or the rule it breaks: a loss is accepted only when something
    /// was lost.
    public static func decide(_ command: LogCommand, _ state: LogState, _ facts: Void = ()) throws(DomainError) -> [DomainEvent] {
        switch command {
        case .acceptLoss(let loss):
            let lost = loss.lostFrom.flatMap { from in loss.lostThrough.map { from...max(from, $0) } }
            guard lost != nil || loss.altered != nil || !loss.setAside.isEmpty else { throw .nothingLost }
            return [.lossAccepted(loss)]
        }
    }

    public static func evolve(_ state: LogState, _ event: DomainEvent) -> LogState {
        guard case .lossAccepted = event else { return state }
        var state = state
        state.acceptedLosses += 1
        return state
    }
}
