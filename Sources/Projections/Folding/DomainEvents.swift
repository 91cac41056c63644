import CoreValues
import EventLog
import PodcastDomain

/// Domain events from the log's envelopes.
enum DomainEvents {
    static func decode(_ envelope: EventEnvelope) throws -> DomainEvent {
        do {
            return try EventCoding.decode(type: envelope.type, schemaVersion: envelope.schemaVersion, payload: envelope.payload)
        } catch {
            throw ProjectionError.unreadableEvent(position: envelope.position.rawValue, reason: error.description)
        }
    }
}
