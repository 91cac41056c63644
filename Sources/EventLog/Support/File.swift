import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor with the few system calls the log needs, each turning errno into a typed error.
///
/// Not buffered: every call is one system call, so the caller decides what reaches the disk and when.
/// Immutable, so that a thread of its own can sync it (``BackgroundSync``).
final class File: Sendable {
    let descriptor: Int32
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens `path`. A file opened to be written or created is never reached through a symbolic link
    /// (`O_NOFOLLOW` is added), and a new file gets 0666 less the process's umask, like any other tool's.
    static func open(_ path: String, flags: Int32, mode: mode_t = 0o666) throws(EventLogError) -> File {
        try open(in: AT_FDCWD, path, flags: flags, mode: mode, naming: path)
    }

    /// Opens `name` in the folder open as `directory` (see ``Folder``); `path` names it in errors.
    static func open(
        in directory: Int32, _ name: String, flags: Int32, mode: mode_t = 0o666, naming path: String
    ) throws(EventLogError) -> File {
        let writing = flags & O_ACCMODE != O_RDONLY || flags & (O_CREAT | O_TRUNC) != 0
        let all = flags | O_CLOEXEC | (writing ? O_NOFOLLOW : 0)
        let fd = FileSystemLayer.current.openat(directory, name, all, mode)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP && all & O_NOFOLLOW != 0 { throw .symbolicLink(path) }
            throw .system("open", path: path, errno: code)
        }
        return File(descriptor: fd, path: path)
    }

    /// Opens `path` to read it. Never waits: a pipe planted in the library's place of a file would
    /// otherwise block the open until something writes to it (`O_NONBLOCK` changes nothing else for a
    /// regular file).
    static func openForReading(_ path: String) throws(EventLogError) -> File {
        try open(path, flags: O_RDONLY | O_NONBLOCK)
    }

    /// Whether it is a regular file, not a pipe, a device or a folder: what a file of the library must be
    /// before it is read whole. Open such a file with `O_NONBLOCK`, so that a pipe does not block the open.
    func isRegular() throws(EventLogError) -> Bool {
        try status().st_mode & S_IFMT == S_IFREG
    }

    /// The file's current size in bytes.
    func size() throws(EventLogError) -> UInt64 {
        UInt64(try status().st_size)
    }

    /// The file's identity now: its size, and its inode number, which a folder's listing gives too (while
    /// this descriptor is open, no other file can have that number).
    func identity() throws(EventLogError) -> FileIdentity {
        FileIdentity(try status())
    }

    private func status() throws(EventLogError) -> stat {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("stat", path: path, errno: errno) }
        return info
    }

    /// Reads up to `count` bytes at `offset` into `buffer` starting at `start`; fewer only at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(EventLogError) -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw .system("read", path: path, errno: errno)
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Reads `count` bytes at `offset`, fewer only at the end of the file.
    func read(count: Int, at offset: UInt64) throws(EventLogError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        let n = try read(into: buffer, at: offset)
        return Array(buffer[0..<n])
    }

    /// Reads the whole file.
    func readAll() throws(EventLogError) -> [UInt8] {
        try read(count: Int(size()), at: 0)
    }

    /// Writes all of `bytes` at `offset`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(EventLogError) {
        var done = 0
        while done < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[done...])
            let n = FileSystemLayer.current.pwrite(descriptor, rest, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw .system("write", path: path, errno: errno)
            }
            done += n
        }
    }

    func write(_ bytes: [UInt8], at offset: UInt64) throws(EventLogError) {
        try bytes.withUnsafeBytes { buffer in Result { () throws(EventLogError) in try write(buffer, at: offset) } }.get()
    }

    /// Flushes the file's data and metadata to the disk.
    func sync() throws(EventLogError) {
        guard FileSystemLayer.current.fsync(descriptor) == 0 else { throw .system("fsync", path: path, errno: errno) }
    }

    func truncate(to size: UInt64) throws(EventLogError) {
        guard FileSystemLayer.current.ftruncate(descriptor, off_t(size)) == 0 else {
            throw .system("truncate", path: path, errno: errno)
        }
    }
}

/// Directory and path operations, with the same error handling as ``File``.
package enum FileSystem {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates a directory (0777 less the umask); returns false when it already existed.
    @discardableResult
    static func makeDirectory(_ path: String) throws(EventLogError) -> Bool {
        if FileSystemLayer.current.mkdirat(AT_FDCWD, path, 0o777) == 0 { return true }
        if errno == EEXIST { return false }
        throw .system("create folder", path: path, errno: errno)
    }

    /// The folder holding `path`: `.` for a bare name, `/` for a name at the root. (Foundation's
    /// `deletingLastPathComponent` traps on a path without a slash on Linux.)
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Makes a directory's entries (created, renamed or removed files) durable.
    static func syncDirectory(_ path: String) throws(EventLogError) {
        let directory = try File.open(path, flags: O_RDONLY | O_DIRECTORY)
        try directory.sync()
    }

    /// Moves what is at `path` out of the way, kept as `path.damaged` (or `-2` ...; see
    /// ``Folder/setAside(_:)``), and returns that path; nil when nothing could be moved.
    package static func setAside(_ path: String) -> String? {
        guard let folder = try? Folder.library(self.folder(of: path)),
            let kept = folder.setAside((path as NSString).lastPathComponent)
        else { return nil }
        return folder.path + "/" + kept
    }

    /// What `info` describes, in words, for messages: `a file`, `a folder`...
    package static func kind(_ info: stat) -> String {
        switch info.st_mode & S_IFMT {
        case S_IFREG: "a file"
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a pipe"
        default: "a device or a socket"
        }
    }

    /// Atomically replaces `target` with `source`.
    static func rename(_ source: String, to target: String) throws(EventLogError) {
        guard FileSystemLayer.current.renameat(AT_FDCWD, source, AT_FDCWD, target) == 0 else {
            throw .system("rename", path: source, errno: errno)
        }
    }

    static func remove(_ path: String) throws(EventLogError) {
        guard FileSystemLayer.current.unlinkat(AT_FDCWD, path, 0) == 0 || errno == ENOENT else {
            throw .system("remove", path: path, errno: errno)
        }
    }

    /// The names `directory` holds, `.` and `..` left out: `readdir`'s, without Foundation's work per name.
    package static func contents(of directory: String) throws(EventLogError) -> [String] {
        try entries(of: directory).map(\.name)
    }

    /// The names `directory` holds, `.` and `..` left out, each with the inode number its entry names.
    static func entries(of directory: String) throws(EventLogError) -> [(name: String, inode: UInt64)] {
        guard let dir = opendir(directory) else { throw .system("list", path: directory, errno: errno) }
        defer { closedir(dir) }
        return entries(in: dir)
    }

    /// The names an open folder holds, `.` and `..` left out.
    static func names(in dir: OpaquePointer) -> [String] {
        entries(in: dir).map(\.name)
    }

    private static func entries(in dir: OpaquePointer) -> [(name: String, inode: UInt64)] {
        var entries: [(name: String, inode: UInt64)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { entries.append((name, UInt64(entry.pointee.d_ino))) }
        }
        return entries
    }
}
