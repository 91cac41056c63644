/// Where a fold of one stream stands: after the stream's `version`-th event, stored at `position`, whose
/// identity is `identity`. A fold kept at a point goes on with the events after it, once the log shows
/// the same event there (see ``EventLog/read(stream:after:_:)``).
public struct StreamPoint: Hashable, Sendable {
    public var position: LogPosition
    /// How many of the stream's events the fold holds: the version of the event at `position`.
    public var version: Int
    public var identity: EventIdentity

    public init(position: LogPosition, version: Int, identity: EventIdentity) {
        self.position = position
        self.version = version
        self.identity = identity
    }
}
