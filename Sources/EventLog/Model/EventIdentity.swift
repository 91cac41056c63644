import CoreValues
import Crypto

/// What tells one stored event from any other that could stand at the same position: the SHA-256 of
/// its line, as 64 lowercase hex digits.
///
/// A read model records the identity of the event its checkpoint stands at. If the log is later
/// replaced by an older copy and written again, the event at that position is another one (another
/// command id, another time), so the read model can tell that it no longer describes this log.
public struct EventIdentity: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Nil unless `rawValue` is 64 lowercase hex digits.
    public init?(rawValue: String) {
        guard rawValue.utf8.count == 64, rawValue.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            return nil
        }
        self.rawValue = rawValue
    }

    /// The identity of the event stored as `line` (without its newline).
    public init(line: UnsafeRawBufferPointer) {
        rawValue = SHA256.hash(data: line).lowercaseHex
    }

    public var description: String { rawValue }
}

extension EventEnvelope {
    /// This event's ``EventIdentity``.
    public var identity: EventIdentity { EventIdentity(line: line) }
}

extension EventLog {
    /// The identity of the event at `position`; nil when the log does not reach it (or for
    /// ``LogPosition/none``). Reads one frame, found through the stream index's sparse directory.
    ///
    /// The identity is that of the line as appended: compaction, which leaves a commit's `prev` out of
    /// the line it stores, changes no event's identity.
    public func identity(at position: LogPosition) throws -> EventIdentity? {
        guard position != .none, position <= head else { return nil }
        var found: EventIdentity?
        try readAsAppended(from: position, through: position) { found = $0.identity }
        return found
    }
}
