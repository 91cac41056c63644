import Foundation

/// The folder of a projections run: `main` (the million-event library), `tenfold` (blobs ten times
/// larger) and `search` (fewer episodes, for the search rebuild), each with a `.plan` file beside it
/// once generated.
///
/// A new folder is made under `./.bench` by default and removed at the end. An existing one is taken
/// only with `--keep`, so that a kept library can be reused but nothing of the user's is deleted.
struct ProjectionsFolder {
    let root: String
    let isNew: Bool

    var main: String { root + "/main" }
    var tenfold: String { root + "/tenfold" }
    /// The smaller library the search projector is rebuilt from.
    var searchLibrary: String { root + "/search" }
    /// Read models of the search projector alone, apart from the libraries' own.
    var searchReadModels: String { root + "/search-read-models" }

    static func open(_ path: String?, keep: Bool) throws -> ProjectionsFolder {
        let requested = path ?? ".bench/projections-\(getpid())"
        let absolute = requested.hasPrefix("/") ? requested : FileManager.default.currentDirectoryPath + "/" + requested
        let root = URL(fileURLWithPath: absolute).standardizedFileURL.path
        let exists = FileManager.default.fileExists(atPath: root)
        if exists && !keep {
            throw BenchFailure("\(root) already exists; add --keep to reuse it, or give a path that does not exist (it is deleted afterwards)")
        }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return ProjectionsFolder(root: root, isNew: !exists)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}
