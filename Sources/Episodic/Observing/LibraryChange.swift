import EventLog

/// One commit of the library's log, as an app following the library is told of it: where it is, who
/// made it and when, and what it touched. A commit is the unit of change: all of a command's events,
/// or a whole script's with `--atomic`.
public struct LibraryChange: Hashable, Sendable {
    /// The positions of the commit's events, gapless.
    public var positions: ClosedRange<LogPosition>
    public var commandID: CommandID
    /// The command this one undid, for an undo (or redo).
    public var undoes: CommandID?
    public var actor: String
    /// When the commit was made, by the clock of the process that made it.
    public var time: Timestamp
    /// The podcasts, episodes and font list the commit's events changed, in the order they first appear.
    public var entities: [AggregateKey]
    /// The log's head when the change was read: changes up to there are already waiting.
    public var head: LogPosition

    /// The podcasts the commit changed.
    public var podcasts: [PodcastID] { entities.compactMap { if case .podcast(let id) = $0 { id } else { nil } } }
    /// The episodes the commit changed.
    public var episodes: [EpisodeID] { entities.compactMap { if case .episode(let id) = $0 { id } else { nil } } }
}
