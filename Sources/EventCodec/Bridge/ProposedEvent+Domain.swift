import EventLog
import PodcastDomain

extension ProposedEvent {
    /// A domain event as the shell appends it: its stream, type, schema version, the payload exactly as
    /// `EventCoding` writes it, and the blobs it refers to (listed in the envelope for `verify`).
    public init(domain event: DomainEvent) {
        self.init(
            stream: StreamID(domain: event.stream), type: event.type, schemaVersion: event.schemaVersion,
            payload: EventCoding.encode(event), blobs: event.blobs)
    }
}
