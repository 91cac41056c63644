import Episodic

/// The event types a `--type` may name, and what to say of one that is none of them.
enum EventTypeNames {
    static let all: Set<String> = Set(DomainEvent.payloadTypes.map { $0.type })

    /// The message for an unknown type: the closest known one when a letter or two is off or only the
    /// case differs, and the list.
    static func unknown(_ name: String) -> String {
        let suggestion = Suggestion.closest(to: name, among: all).map { " Did you mean \($0)?" } ?? ""
        return "there is no event type \"\(name)\".\(suggestion) The types are: \(all.sorted().joined(separator: ", "))."
    }
}
