import CoreValues
import Foundation

/// One event as its producer hands it to the log, before it has a position.
public struct ProposedEvent: Sendable {
    public var stream: StreamID
    /// The event's type name, e.g. `EpisodeCreated`. Same alphabet as a stream id, at most 100 characters.
    public var type: String
    /// The version of the payload's shape; readers upcast older shapes.
    public var schemaVersion: Int
    /// The payload: one JSON value, UTF-8, with no raw line breaks (so the line stays one line).
    public var payload: [UInt8]
    /// The blobs the payload refers to. They are listed in the envelope so that `verify`
    /// can check every referenced blob without knowing what the payload means.
    public var blobs: [BlobRef]

    public init(stream: StreamID, type: String, schemaVersion: Int = 1, payload: [UInt8], blobs: [BlobRef] = []) {
        self.stream = stream
        self.type = type
        self.schemaVersion = schemaVersion
        self.payload = payload
        self.blobs = blobs
    }

    /// A payload given as JSON text.
    public init(stream: StreamID, type: String, schemaVersion: Int = 1, json: String, blobs: [BlobRef] = []) {
        self.init(stream: stream, type: type, schemaVersion: schemaVersion, payload: Array(json.utf8), blobs: blobs)
    }
}

/// Events appended together, all or nothing, as one LZ4 frame.
///
/// The metadata (time, actor, command id, `undoes`) is shared by every event of the commit:
/// one command makes one commit.
public struct Commit: Sendable {
    public var events: [ProposedEvent]
    /// The version each stream must have before the commit. Streams not named here are `.any`.
    public var expectations: [StreamID: ExpectedVersion]
    public var commandID: CommandID
    /// Who asked for the change: a login name or a script's name.
    public var actor: String
    /// When the command was issued.
    public var timestamp: Timestamp
    /// The command this commit compensates, when it is an undo.
    public var undoes: CommandID?

    public init(
        events: [ProposedEvent],
        expectations: [StreamID: ExpectedVersion] = [:],
        commandID: CommandID,
        actor: String,
        timestamp: Timestamp,
        undoes: CommandID? = nil
    ) {
        self.events = events
        self.expectations = expectations
        self.commandID = commandID
        self.actor = actor
        self.timestamp = timestamp
        self.undoes = undoes
    }
}

/// What an acknowledged commit was given: once `append` returns this, the commit is on disk.
public struct AppendResult: Sendable, Equatable {
    /// The positions of the commit's events, in order, without gaps.
    public var positions: ClosedRange<LogPosition>
    /// Each stream's version after the commit.
    public var streamVersions: [StreamID: Int]

    public init(positions: ClosedRange<LogPosition>, streamVersions: [StreamID: Int]) {
        (self.positions, self.streamVersions) = (positions, streamVersions)
    }
}
