/// What a user probably meant by a name that matches nothing: the closest of the known ones, when a
/// letter or two is off or only the case differs.
public enum Suggestion {
    /// The known name nearest `given` (case ignored), if it is within a typo's reach: at most 3 edits,
    /// and fewer than half the name's length, so that a short word is not "corrected" into another.
    public static func closest(to given: String, among known: some Sequence<String>) -> String? {
        let typed = given.lowercased()
        var best: (name: String, distance: Int)?
        for name in known {
            let distance = editDistance(name.lowercased(), typed)
            if distance < (best?.distance ?? .max) { best = (name, distance) }
        }
        guard let best, best.distance <= min(3, max(1, (typed.count - 1) / 2)) else { return nil }
        return best.name
    }

    /// Levenshtein distance, by characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
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
