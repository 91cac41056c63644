import Foundation

/// The folder a run writes into: made fresh, on the disk under test, and removed afterwards.
///
/// The default sits under the current directory rather than /tmp, which is tmpfs on many systems:
/// fsync on memory would flatter every figure.
struct BenchFolder {
    let root: String

    /// The library of the commit benchmarks.
    var commitLibrary: String { root + "/commits" }
    /// The large library that is scanned and compacted.
    var bulkLibrary: String { root + "/bulk" }
    /// The plain file of the raw write+fsync rounds.
    var rawFile: String { root + "/raw-fsync.dat" }

    /// Creates `path`, or `./.bench/log-<pid>` without one. An existing path is refused, because the
    /// folder is deleted at the end.
    static func create(at path: String?) throws -> BenchFolder {
        let requested = path ?? ".bench/log-\(getpid())"
        let absolute = requested.hasPrefix("/")
            ? requested : FileManager.default.currentDirectoryPath + "/" + requested
        let root = URL(fileURLWithPath: absolute).standardizedFileURL.path
        guard !FileManager.default.fileExists(atPath: root) else {
            throw BenchFailure("\(root) already exists; give a path that does not (it is deleted afterwards unless --keep)")
        }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return BenchFolder(root: root)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The bytes of a library's segment files: how the size of what commits write is measured.
    static func segmentBytes(ofLibrary library: String) throws -> UInt64 {
        let folder = library + "/log"
        var total: UInt64 = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".seg") {
            var info = stat()
            guard stat(folder + "/" + name, &info) == 0 else { throw BenchFailure.system("stat", folder + "/" + name) }
            total += UInt64(info.st_size)
        }
        return total
    }
}
