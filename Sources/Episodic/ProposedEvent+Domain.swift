import EventLog
import PodcastDomain

extension ProposedEvent {
    /// A domain event as the shell appends it: its stream, type, schema version, the payload exactly as
    /// `EventCoding` writes it, and the blobs it refers to (listed in the envelope for `verify`).
    public init(domain event: DomainEvent) {
        // Domain stream names (`podcast-<uuid>`, `episode-<uuid>`) are valid stream ids by construction.
        self.init(
            stream: StreamID(rawValue: event.stream)!, type: event.type, schemaVersion: event.schemaVersion,
            payload: EventCoding.encode(event), blobs: event.blobs)
    }
}
