/// The part of a stored event that says where it goes: its position, stream and type, read without
/// parsing the rest of its line.
///
/// For readers that route every event of a long stretch and look inside few of them (a replay's
/// plan). Like ``EventEnvelope``, it borrows the reader's buffer: valid only inside the closure that
/// received it.
public struct EventHead {
    public let position: LogPosition
    /// The stream's name, as UTF-8 bytes.
    public let streamBytes: UnsafeRawBufferPointer
    /// The event type's name, as UTF-8 bytes.
    public let typeBytes: UnsafeRawBufferPointer

    init(_ envelope: EventEnvelope) {
        position = envelope.position
        streamBytes = envelope.streamBytes
        typeBytes = envelope.typeBytes
    }

    init(position: LogPosition, streamBytes: UnsafeRawBufferPointer, typeBytes: UnsafeRawBufferPointer) {
        self.position = position
        self.streamBytes = streamBytes
        self.typeBytes = typeBytes
    }
}
