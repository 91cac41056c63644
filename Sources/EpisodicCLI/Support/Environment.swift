import Foundation

/// The process's environment variables, read one at a time: `ProcessInfo.environment` copies every
/// variable into a dictionary first, which each command would pay for to read one or two.
enum Environment {
    /// The value of the variable `name`; nil when it is not set.
    static func value(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
