import CoreValues

/// An event in the log whose payload this build cannot turn into a domain event: a payload damaged or
/// written by another program, a type it does not know, or a schema version newer than it reads.
public struct UnreadableEvent: ClassifiedError, Equatable, Sendable, CustomStringConvertible {
    /// The event's position in the log.
    public var position: UInt64
    /// What is wrong with it, naming the field where there is one.
    public var reason: String

    public init(position: UInt64, reason: String) {
        self.position = position
        self.reason = reason
    }

    public var description: String { "the event at position \(position) cannot be read: \(reason)." }

    /// The log holds what this build cannot read: damage, or a newer writer's events.
    public var kind: ErrorKind { .damaged }
}
