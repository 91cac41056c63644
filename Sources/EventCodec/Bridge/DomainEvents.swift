import EventLog
import PodcastDomain

/// Domain events from the log's envelopes; a payload that cannot be read names its position.
public enum DomainEvents {
    public static func decode(_ envelope: EventEnvelope) throws(UnreadableEvent) -> DomainEvent {
        do {
            return try EventCoding.decode(type: envelope.type, schemaVersion: envelope.schemaVersion, payload: envelope.payload)
        } catch {
            throw UnreadableEvent(position: envelope.position.rawValue, reason: error.description)
        }
    }

    /// The same for an event copied out of the log.
    public static func decode(_ event: RecordedEvent) throws(UnreadableEvent) -> DomainEvent {
        do {
            return try EventCoding.decode(type: event.type, schemaVersion: event.schemaVersion, payload: event.payload)
        } catch {
            throw UnreadableEvent(position: event.position.rawValue, reason: error.description)
        }
    }
}
