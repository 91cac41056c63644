import Foundation

/// A fresh folder for one test, removed with everything in it when the last reference goes.
public final class TemporaryFolder: Sendable {
    /// The folder's absolute path, without a trailing slash.
    public let path: String

    /// Makes `<temporary directory>/<prefix>-XXXXXX`. `inMemory` puts it on /dev/shm when there is one,
    /// where fsync costs nothing: for tests that make hundreds of libraries.
    public init(_ prefix: String, inMemory: Bool = false) {
        let parent = inMemory && access("/dev/shm", W_OK) == 0 ? "/dev/shm/" : NSTemporaryDirectory()
        var template = Array((parent + prefix + "-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("cannot make a temporary folder in \(parent): errno \(errno)") }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the folder.
    public func callAsFunction(_ name: String) -> String { path + "/" + name }
}
