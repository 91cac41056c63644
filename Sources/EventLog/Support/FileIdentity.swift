import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file as `stat` finds it. The library's derived files and its compacted segments are replaced by a
/// rename (a new inode) or appended to (a new size), never rewritten in place, so the same identity
/// means the same file, unchanged; a write in place would still change its times.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    /// In bytes.
    var size: Int64
    /// When its contents and its inode last changed, in nanoseconds since 1970.
    var modified: Int64
    var changed: Int64
}

extension FileIdentity {
    /// The file at `path`; with `followingLinks` false, a symbolic link there is described itself.
    init?(path: String, followingLinks: Bool = true) {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        (device, inode, size) = (UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size))
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }
}
