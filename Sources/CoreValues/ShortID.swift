/// Ids as people see them: the first 8 characters, as `git` shows commits, or more where two listed
/// together would otherwise look the same.
public enum ShortID {
    /// The shortest length, at least 8, at which no two of `ids` share their start; the full length
    /// when two are equal.
    public static func length(distinguishing ids: [String]) -> Int {
        let sorted = ids.sorted()
        var length = 8
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            let common = zip(a, b).prefix { $0 == $1 }.count
            length = max(length, common + 1)
        }
        return min(length, ids.map(\.count).max() ?? length)
    }
}
