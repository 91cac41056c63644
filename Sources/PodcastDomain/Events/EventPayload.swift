import CoreValues

/// What every event's payload knows about itself: its type name and schema version in the log, the
/// stream it belongs to, and the blobs it refers to.
public protocol EventPayload: Hashable, Sendable, Codable {
    /// The type name written in the log, e.g. `EpisodeCreated`.
    static var type: String { get }
    /// The version of this payload's shape. A new shape is a new version plus an upcaster (see ``Upcasting``).
    static var schemaVersion: Int { get }
    /// The name of the stream in the log: `podcast-<uuid>` or `episode-<uuid>`.
    var stream: String { get }
    /// Blobs the payload refers to, listed in the log's envelope so that verification can check them.
    var blobs: [BlobRef] { get }
}

extension EventPayload {
    /// The type's own name. `_typeName` rather than `String(describing:)`, which first looks for a
    /// `CustomStringConvertible` conformance: a scan of every conformance in the program, that cost each
    /// CLI invocation milliseconds.
    public static var type: String { _typeName(Self.self, qualified: false) }
    public static var schemaVersion: Int { 1 }
    public var blobs: [BlobRef] { [] }
}

/// A payload of the podcast stream.
public protocol PodcastEventPayload: EventPayload {
    var podcastID: PodcastID { get }
}

extension PodcastEventPayload {
    public var stream: String { podcastID.streamName }
}

/// A payload of an episode stream.
public protocol EpisodeEventPayload: EventPayload {
    var episodeID: EpisodeID { get }
}

extension EpisodeEventPayload {
    public var stream: String { episodeID.streamName }
}

extension ImageRef {
    var blobs: [BlobRef] { [blob] }
}

extension Optional where Wrapped == ImageRef {
    var blobs: [BlobRef] { map { [$0.blob] } ?? [] }
}
