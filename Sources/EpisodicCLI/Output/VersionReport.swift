import Episodic
import Foundation

/// What `episodic --version` says: the release, the library format it writes, and the library it would
/// use, with the format that library's FORMAT file declares.
struct VersionReport {
    var libraryPath: String

    var lines: [String] {
        ["episodic \(Library.version)", "library format \(Library.formatVersion)", "library \(libraryPath) (\(libraryState))"]
    }

    private var libraryState: String {
        guard let format = try? String(contentsOfFile: libraryPath + "/FORMAT", encoding: .utf8) else {
            return FileManager.default.fileExists(atPath: libraryPath)
                ? "not a library: no FORMAT file" : "none yet: `episodic init` creates it"
        }
        return String(format.trimmingWhitespace)
    }
}
