import Foundation

/// A benchmark that cannot go on: a system call refused, or the log read back something it was not given.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }

    /// The failure of a system call, with errno's message.
    static func system(_ operation: String, _ path: String) -> BenchFailure {
        BenchFailure("\(operation) \(path): \(String(cString: strerror(errno)))")
    }
}
