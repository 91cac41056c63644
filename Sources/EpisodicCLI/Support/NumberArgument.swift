import ArgumentParser

/// Numbers from the command line, read and range-checked as they are parsed, so that no value (huge,
/// negative, `nan`, `inf`) reaches arithmetic that could trap, and a refusal (exit 64) gives the range.
/// Used as `@Option(parsing: .unconditional, transform:)`: the value after the option is taken whatever
/// it starts with, so that `--lock-timeout -1` is refused for its range rather than read as a missing
/// value followed by an option `-1`. The ranges are the domain's wherever the domain has one.
enum NumberArgument {
    /// A whole number in `range`.
    static func whole(_ range: ClosedRange<Int>, _ unit: String = "") -> @Sendable (String) throws -> Int {
        { argument in
            guard let value = Int(argument), range.contains(value) else {
                throw ValidationError("give a whole number from \(range.lowerBound) to \(range.upperBound)\(unit.isEmpty ? "" : " " + unit)")
            }
            return value
        }
    }

    /// A finite number in `range`.
    static func decimal(_ range: ClosedRange<Double>, _ unit: String) -> @Sendable (String) throws -> Double {
        { argument in
            guard let value = Double(argument), value.isFinite, range.contains(value) else {
                throw ValidationError("give a number from \(text(range.lowerBound)) to \(text(range.upperBound)) \(unit)")
            }
            return value
        }
    }

    /// `12`, `0.5`: a bound as people write it.
    private static func text(_ bound: Double) -> String {
        bound == bound.rounded() && abs(bound) < 1e15 ? String(Int(bound)) : String(bound)
    }
}
