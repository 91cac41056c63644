import CoreValues
import Foundation

/// One stored event, read in place: the envelope is parsed, the payload is not.
///
/// A view borrows the reader's buffer, so it is valid only inside the closure that received it.
/// Copy what you need to keep, or make a ``RecordedEvent``. Strings are made only when asked for,
/// so a reader that looks at positions and types allocates nothing.
public struct EventEnvelope {
    /// The whole JSON line, without its newline.
    public let line: UnsafeRawBufferPointer
    public let position: LogPosition
    /// The event's place in its stream, from 1.
    public let streamVersion: Int
    /// The version of the payload's shape.
    public let schemaVersion: Int
    let streamRange: Range<Int>
    let typeRange: Range<Int>
    let timeRange: Range<Int>
    let actorRange: Range<Int>
    let actorEscaped: Bool
    let commandRange: Range<Int>
    let undoesRange: Range<Int>?
    /// `prev`: on the first line of a commit since log format 2, the hash of the commit before it; empty
    /// where compaction left it out (format 3), the hash then being the one the commit before has.
    let previousRange: Range<Int>?
    let blobsRange: Range<Int>?
    let dataRange: Range<Int>

    public var stream: StreamID { StreamID(unchecked: String(decoding: bytes(streamRange), as: UTF8.self)) }
    public var type: String { String(decoding: bytes(typeRange), as: UTF8.self) }
    public var actor: String { JSONText.decodeString(bytes(actorRange), escaped: actorEscaped) }
    public var commandID: CommandID { Self.command(bytes(commandRange)) }
    public var undoes: CommandID? { undoesRange.map { Self.command(bytes($0)) } }
    /// The time of the commit. (The parser checked its form; a hand-made line with a time out of range reads as 1970.)
    public var timestamp: Timestamp { Timestamp.parse(bytes(timeRange)).flatMap(Timestamp.init(rawValue:)) ?? Timestamp(rawValue: 0)! }

    /// A command id from its bytes: the canonical form without making a String, else any form `UUID` reads.
    private static func command(_ text: UnsafeRawBufferPointer) -> CommandID {
        CommandID(utf8: text) ?? CommandID(String(decoding: text, as: UTF8.self))!
    }

    /// The stream id's bytes, for comparing and hashing without making a String.
    public var streamBytes: UnsafeRawBufferPointer { bytes(streamRange) }
    /// The type name's bytes.
    public var typeBytes: UnsafeRawBufferPointer { bytes(typeRange) }
    /// The command id's bytes, as stored.
    var commandBytes: UnsafeRawBufferPointer { bytes(commandRange) }
    /// The `prev` member's text (the hex digits between its quotes, or nothing), when the line has one.
    var previousBytes: UnsafeRawBufferPointer? { previousRange.map(bytes) }

    /// True when the event's type is `name`, compared without allocating.
    public func hasType(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { typeBytes.elementsEqual(UnsafeRawBufferPointer($0)) }
    }

    /// True when the event belongs to `stream`, compared without allocating.
    public func isIn(_ stream: StreamID) -> Bool {
        var raw = stream.rawValue
        return raw.withUTF8 { streamBytes.elementsEqual(UnsafeRawBufferPointer($0)) }
    }

    /// The payload's JSON bytes, exactly as appended.
    public var payload: UnsafeRawBufferPointer { bytes(dataRange) }

    /// The blobs the event refers to.
    public var blobs: [BlobRef] {
        guard let range = blobsRange else { return [] }
        return EnvelopeParser.blobRefs(in: bytes(range)) ?? []
    }

    /// Decodes the payload with `decoder`.
    public func decodePayload<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(T.self, from: Data(payload))
    }

    @inline(__always)
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: line[range]) }
}

/// An event copied out of the log, safe to keep.
public struct RecordedEvent: Sendable, Equatable {
    public var position: LogPosition
    public var stream: StreamID
    public var streamVersion: Int
    public var type: String
    public var schemaVersion: Int
    public var timestamp: Timestamp
    public var actor: String
    public var commandID: CommandID
    public var undoes: CommandID?
    public var blobs: [BlobRef]
    public var payload: [UInt8]

    public init(
        position: LogPosition, stream: StreamID, streamVersion: Int, type: String, schemaVersion: Int, timestamp: Timestamp,
        actor: String, commandID: CommandID, undoes: CommandID?, blobs: [BlobRef], payload: [UInt8]
    ) {
        (self.position, self.stream, self.streamVersion, self.type, self.schemaVersion) = (position, stream, streamVersion, type, schemaVersion)
        (self.timestamp, self.actor, self.commandID, self.undoes, self.blobs, self.payload) = (timestamp, actor, commandID, undoes, blobs, payload)
    }

    public init(_ envelope: EventEnvelope) {
        position = envelope.position
        stream = envelope.stream
        streamVersion = envelope.streamVersion
        type = envelope.type
        schemaVersion = envelope.schemaVersion
        timestamp = envelope.timestamp
        actor = envelope.actor
        commandID = envelope.commandID
        undoes = envelope.undoes
        blobs = envelope.blobs
        payload = Array(envelope.payload)
    }

    /// The payload as text.
    public var json: String { String(decoding: payload, as: UTF8.self) }
}
