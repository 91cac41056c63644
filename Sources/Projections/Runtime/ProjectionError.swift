import CoreValues

/// What the read-model runtime can fail at. Each message says what is wrong.
public enum ProjectionError: Error, Equatable, Sendable, CustomStringConvertible {
    case missingSchema(String)
    case unknownProjector(String)
    case unreadableEvent(position: UInt64, reason: String)

    public var description: String {
        switch self {
        case .missingSchema(let name):
            "the DDL of projector \(name) (schemas/projections/\(name).sql) is missing from this build. Reinstall Episodic."
        case .unknownProjector(let name):
            "there is no projector named \(name)."
                + (Suggestion.closest(to: name, among: Projectors.names).map { " Did you mean \($0)?" } ?? "")
                + " Known: \(Projectors.names.joined(separator: ", "))."
        case let .unreadableEvent(position, reason):
            "the event at position \(position) cannot be read: \(reason)."
        }
    }
}

extension ProjectionError: ClassifiedError {
    public var kind: ErrorKind {
        switch self {
        // This build is missing part of itself, or the log holds what cannot be read.
        case .missingSchema, .unreadableEvent: .damaged
        case .unknownProjector: .usage
        }
    }
}
