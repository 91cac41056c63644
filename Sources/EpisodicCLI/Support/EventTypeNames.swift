import Episodic

/// The event types a `--type` may name, and what to say of one that is none of them.
enum EventTypeNames {
    static let all: Set<String> = Set(DomainEvent.payloadTypes.map { $0.type })

    /// The message for an unknown type: the closest known one when a letter or two is off or only the
    /// case differs, and the list.
    static func unknown(_ name: String) -> String {
        let closest = all.min { distance($0.lowercased(), name.lowercased()) < distance($1.lowercased(), name.lowercased()) }
        let suggestion = closest.flatMap { distance($0.lowercased(), name.lowercased()) <= 3 ? " Did you mean \($0)?" : nil } ?? ""
        return "there is no event type \"\(name)\".\(suggestion) The types are: \(all.sorted().joined(separator: ", "))."
    }

    /// Levenshtein distance, by characters.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
