import CoreValues
import EventCodec
import EventLog
import PodcastDomain

/// An event as the log holds it, its payload not yet decoded: what a fold keeps of an event it may
/// still need. The payload is copied out of the log's buffers, which are valid only during a read.
struct RawEvent: Sendable {
    let position: UInt64
    let type: String
    let schemaVersion: Int
    let payload: [UInt8]
    /// The time of its commit.
    let time: Timestamp
    /// The entity it belongs to.
    let subject: FoldPlan.Subject

    /// `type` is the envelope's type, made a `String` by the caller (who may have it already).
    init(_ envelope: EventEnvelope, type: String) throws(ProjectionError) {
        position = envelope.position.rawValue
        self.type = type
        schemaVersion = envelope.schemaVersion
        payload = Array(envelope.payload)
        time = envelope.timestamp
        // Only events a plan needs are copied, and a plan needs only entities' events.
        guard let subject = try FoldPlan.Subject(stream: envelope.streamBytes, position: position) else {
            throw .unreadableEvent(position: position, reason: "its stream, \(envelope.stream), belongs to no entity")
        }
        self.subject = subject
    }

    init(_ envelope: EventEnvelope) throws(ProjectionError) {
        try self.init(envelope, type: envelope.type)
    }

    func decode() throws(ProjectionError) -> DomainEvent {
        do {
            return try EventCoding.decode(type: type, schemaVersion: schemaVersion, payload: payload)
        } catch {
            throw .unreadableEvent(position: position, reason: error.description)
        }
    }
}
