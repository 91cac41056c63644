/// Runs `body` once and returns how long it took, in seconds.
func timed(_ body: () throws -> Void) rethrows -> Double {
    try ContinuousClock().measure(body).seconds
}

extension Array where Element == Double {
    /// The middle value (the mean of the two middle ones for an even count): one slow round, from a
    /// neighbour's burst of writes, does not move it.
    var median: Double {
        precondition(!isEmpty, "the median of no rounds")
        let sorted = self.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
