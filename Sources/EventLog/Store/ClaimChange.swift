import CoreValues

/// A change to what a stream reserves among all the library's writers: a key that no other stream may
/// hold at the same time (a podcast's name, an episode's number within its podcast).
///
/// A library in a folder has one writer at a time, whose decisions already see every other stream, so
/// its log ignores claims. A shared log has writers on many machines, each deciding on its own copy:
/// its server takes the claims in the same transaction as the commit, and refuses the commit when
/// another stream holds one (``LogAppender/append(_:blobs:claims:)``).
public struct ClaimChange: Hashable, Sendable {
    public enum Action: String, Sendable {
        /// The stream now holds `key` in `scope`, in place of any key of this kind it held before.
        case hold
        /// The stream keeps its scope and holds `key` instead of the key it held.
        case rekey
        /// The stream holds no key of this kind any more.
        case release
    }

    public var action: Action
    /// What is unique: `podcast-name`, `episode-number`.
    public var kind: String
    public var stream: StreamID
    /// What the key is unique within (a podcast's stream for episode numbers); empty for the whole
    /// library. Ignored by `rekey` and `release`.
    public var scope: String
    /// Ignored by `release`.
    public var key: String

    public init(_ action: Action, kind: String, stream: StreamID, scope: String = "", key: String = "") {
        (self.action, self.kind, self.stream, self.scope, self.key) = (action, kind, stream, scope, key)
    }
}
