import Foundation

/// The id of the command that produced a commit. Every event of the commit carries it,
/// so the log can answer "what else did this command change" and undo can name it.
public struct CommandID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UUID

    public init(rawValue: UUID) { self.rawValue = rawValue }
    public init(_ rawValue: UUID) { self.rawValue = rawValue }

    /// Parses the lowercase or uppercase text form of a UUID.
    public init?(_ text: String) {
        guard let uuid = UUID(uuidString: text) else { return nil }
        rawValue = uuid
    }

    /// Lowercase, as written in the log.
    public var description: String { rawValue.uuidString.lowercased() }
}
