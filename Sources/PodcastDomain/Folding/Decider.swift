/// An aggregate's rules as three pure functions: where its stream starts, what a command means for it,
/// and what an event does to it. No I/O, clock or randomness: ids, times and the facts a rule needs
/// beyond the aggregate's own stream (``PodcastFacts``, ``EpisodeFacts``) come in with the call, so a
/// replay decides and folds the same way.
///
/// Deciders are namespaces (`enum`s without cases): ``PodcastDecider``, ``EpisodeDecider``,
/// ``FontDecider`` and ``LogDecider``. ``LibraryState`` routes each event to the one whose stream it belongs to.
public protocol Decider {
    associatedtype Command
    associatedtype State
    /// What a command needs to know beyond the aggregate's own stream, read by the shell from a read
    /// model that is current under the writer lock; `Void` for an aggregate that needs nothing.
    associatedtype Facts

    /// The state of a stream with no events.
    static var initial: State { get }

    /// The events `command` produces, or the rule it breaks. A command that changes nothing gives no
    /// events.
    static func decide(_ command: Command, _ state: State, _ facts: Facts) throws(DomainError) -> [DomainEvent]

    /// The state after `event`. An event of another stream leaves it as it is.
    static func evolve(_ state: State, _ event: DomainEvent) -> State
}

extension Decider {
    /// Folds a stream's events from ``initial``.
    public static func fold(_ events: some Sequence<DomainEvent>) -> State {
        events.reduce(initial, evolve)
    }
}
