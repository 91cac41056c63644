import Foundation

/// The temporary folders of replays outside a library, removed when their read model goes or, since a
/// command line tool exits without releasing what it holds, when the process exits.
enum TemporaryFolders {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var folders: Set<String> = []
    nonisolated(unsafe) private static var registered = false

    static func add(_ folder: String) {
        lock.withLock {
            folders.insert(folder)
            if !registered {
                registered = true
                atexit { TemporaryFolders.removeAll() }
            }
        }
    }

    static func remove(_ folder: String) {
        lock.withLock { _ = folders.remove(folder) }
        try? FileManager.default.removeItem(atPath: folder)
    }

    private static func removeAll() {
        for folder in lock.withLock({ folders }) { try? FileManager.default.removeItem(atPath: folder) }
    }
}
