/// What a commit expects of a stream's version before it appends: the guard of optimistic concurrency.
///
/// A stream's version is the number of events in it: 0 for a stream that does not exist yet,
/// 1 after its first event.
public enum ExpectedVersion: Hashable, Sendable, CustomStringConvertible {
    /// Append whatever the stream holds.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream must hold exactly this many events.
    case exactly(Int)

    /// What a commit expects of a stream that holds `version` events: that it still holds them, or,
    /// at 0, that it does not exist yet.
    public init(after version: Int) {
        self = version == 0 ? .noStream : .exactly(version)
    }

    func admits(_ actual: Int) -> Bool {
        switch self {
        case .any: true
        case .noStream: actual == 0
        case .exactly(let version): actual == version
        }
    }

    public var description: String {
        switch self {
        case .any: "any version"
        case .noStream: "no stream yet"
        case .exactly(let version): "version \(version)"
        }
    }
}
