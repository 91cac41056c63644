import Foundation
import Projections

extension LibraryInfo.DiskUsage {
    /// Sums the lengths of the files under `library`, by the top-level entry they are in. Symbolic links
    /// are never followed (`read.sqlite` points into `read/`, which is counted once); what cannot be read
    /// (another user's folder) counts as nothing.
    init(measuring library: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: library)) ?? []
        for name in names {
            let bytes = Self.length(of: library + "/" + name)
            switch name {
            case "log": log += bytes
            case "index", "snapshots": index += bytes
            case "blobs": blobs += bytes
            case "quarantine": quarantine += bytes
            case _ where name == ReadModel.generationsFolder || name.hasPrefix(ReadModel.linkName): readModels += bytes
            default: other += bytes
            }
        }
    }

    /// A regular file's length, or the sum of a folder's files; 0 for anything else.
    private static func length(of path: String) -> UInt64 {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return UInt64(info.st_size)
        case S_IFDIR:
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.reduce(0) { $0 + length(of: path + "/" + $1) }
        default:
            return 0
        }
    }
}
