import Foundation

/// What a test needs from the machine: root, a mount, a second CPU, a PostgreSQL server, a tool.
///
/// Where it is missing, the test is skipped and says why. Under CI (`CI=true`, which `.ci/run` sets)
/// it fails instead, so that no run passes by skipping what it was meant to check.
public enum Need {
    /// Whether this is a CI run, where every test must run.
    public static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// For `.enabled(if: try Need.met(...))`: true when `available`; when not, false (skipped, saying
    /// why) or, under CI or where `requiredBy` names a setting of this run, a thrown ``UnmetNeed``,
    /// which Swift Testing records as a failure of every test the trait covers.
    public static func met(_ available: Bool, _ why: @autoclosure () -> String, requiredBy: String? = nil) throws -> Bool {
        if available { return true }
        try unmet(why(), requiredBy: requiredBy)
        return false
    }

    /// For a test that finds out inside itself that it cannot run: prints that it is skipped and why,
    /// after which the test returns; under CI, or where `requiredBy` names a setting of this run,
    /// throws ``UnmetNeed`` instead.
    public static func unmet(_ why: String, requiredBy: String? = nil) throws {
        if let setting = requiredBy ?? (inCI ? "CI=true" : nil) { throw UnmetNeed(why: why, requiredBy: setting) }
        FileHandle.standardError.write(Data("skipped: \(why)\n".utf8))
    }
}

/// A test that could not get what it needs in a run that must not skip it.
public struct UnmetNeed: Error, CustomStringConvertible {
    public let why: String
    /// The setting that makes the run require it, such as `CI=true`.
    public let requiredBy: String

    public var description: String { "\(why); with \(requiredBy) this test fails rather than skips" }
}
