import CoreValues
import Foundation
import PodcastDomain

/// Events to and from the JSON payloads written in the log.
///
/// Encoding is deterministic (sorted keys), so the same event always gives the same bytes. Decoding
/// accepts every schema version this build knows, upcasting older ones (see ``Upcasting``).
public enum EventCoding {
    /// A payload that cannot be read. Its description is a clause, for a sentence about the event.
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case unknownType(String)
        case newerSchema(type: String, found: Int, supported: Int)
        case malformed(type: String, schemaVersion: Int, reason: String)

        public var description: String {
            switch self {
            case .unknownType(let type):
                "unknown event type \(type); it was written by another program or a newer Episodic"
            case let .newerSchema(type, found, supported):
                "\(type) version \(found) is newer than this build reads (up to \(supported)); upgrade Episodic"
            case let .malformed(type, version, reason):
                "\(type) version \(version) cannot be read: \(reason)"
            }
        }
    }

    /// The payload's JSON: UTF-8, one line, keys sorted.
    public static func encode(_ event: DomainEvent) -> [UInt8] {
        json(event.payload)
    }

    /// Any value of the domain as payloads write it (see ``PayloadEncoder``): what read models store
    /// where they keep a value as JSON.
    public static func json(_ value: some Encodable) -> [UInt8] {
        // Encoding plain values of our own types cannot fail: their numbers are finite.
        try! PayloadEncoder.encode(value)
    }

    /// The event a stored payload stands for, upcast to this build's schema version.
    public static func decode(type: String, schemaVersion: Int, payload: some DataProtocol) throws(Failure) -> DomainEvent {
        guard let eventCase = decoders[type] else { throw .unknownType(type) }
        let current = eventCase.schemaVersion
        guard schemaVersion <= current else {
            throw .newerSchema(type: type, found: schemaVersion, supported: current)
        }
        do {
            if schemaVersion < current {
                let data = try Upcasting.upcast(type: type, from: schemaVersion, to: current, payload: Data(payload))
                return try data.withUnsafeBytes(eventCase.decode)
            }
            if let contiguous = try payload.withContiguousStorageIfAvailable({ try eventCase.decode(UnsafeRawBufferPointer($0)) }) {
                return contiguous
            }
            return try Array(payload).withUnsafeBytes(eventCase.decode)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .malformed(type: type, schemaVersion: schemaVersion, reason: "\(error)")
        }
    }

    /// Each type's current schema version and decoder, by the type names written in the log.
    private static let decoders: [String: (schemaVersion: Int, decode: @Sendable (UnsafeRawBufferPointer) throws -> DomainEvent)] =
        DomainEvent.casesByType.mapValues { ($0.payloadType.schemaVersion, $0.decoder(PayloadDecoder.self)) }
}

extension PayloadDecoder: PayloadDecoding {}

extension EventCoding.Failure: ClassifiedError {
    /// A stored payload this build cannot read: the log is not what this build expects.
    public var kind: ErrorKind { .damaged }
}
