import CoreValues

/// What every event's payload knows about itself: its type name and schema version in the log, the
/// stream it belongs to, and the blobs it refers to.
public protocol EventPayload: Hashable, Sendable, Codable {
    /// The type name written in the log, e.g. `EpisodeCreated`.
    static var type: String { get }
    /// The version of this payload's shape. A new shape is a new version plus an upcaster (see ``Upcasting``).
    static var schemaVersion: Int { get }
    /// The aggregate whose stream holds the event. A requirement, not a cast to the protocols below:
    /// the first cast of each payload type scans every protocol conformance in the program.
    var aggregate: AggregateKey { get }
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
    /// The name of the stream in the log: `podcast-<uuid>`, `episode-<uuid>` or `fonts`.
    public var stream: String { aggregate.streamName }
}

/// A payload of the podcast stream.
public protocol PodcastEventPayload: EventPayload {
    var podcastID: PodcastID { get }
}

extension PodcastEventPayload {
    public var aggregate: AggregateKey { .podcast(podcastID) }
}

/// A payload of an episode stream.
public protocol EpisodeEventPayload: EventPayload {
    var episodeID: EpisodeID { get }
}

extension EpisodeEventPayload {
    public var aggregate: AggregateKey { .episode(episodeID) }
}

extension ImageRef {
    var blobs: [BlobRef] { [blob] }
}

extension Optional where Wrapped == ImageRef {
    var blobs: [BlobRef] { map { [$0.blob] } ?? [] }
}
