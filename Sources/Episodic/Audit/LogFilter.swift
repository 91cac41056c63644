import CoreValues
import EventLog
import PodcastDomain

/// Which events of the log to show. Every condition given must hold.
public struct LogFilter: Sendable {
    /// The podcast's own events and those of every episode created in it.
    public var podcast: PodcastID?
    /// The episode's events.
    public var episode: EpisodeID?
    public var streams: Set<StreamID> = []
    public var types: Set<String> = []
    public var actors: Set<String> = []
    public var command: CommandID?
    /// Inclusive bounds.
    public var since: LogBound?
    public var until: LogBound?

    public init() {}

    /// The first position worth reading.
    var start: LogPosition {
        if case .position(let position) = since { return max(position, LogPosition(1)) }
        return LogPosition(1)
    }

    /// The last position worth reading; nil: the head.
    var end: LogPosition? {
        if case .position(let position) = until { return position }
        return nil
    }
}

/// One event of the log as `episodic log` shows it: the envelope, the event, and its raw line.
public struct LoggedEvent: Sendable {
    public var record: RecordedEvent
    public var event: DomainEvent
    /// The envelope's JSON line, exactly as stored.
    public var line: String
}
