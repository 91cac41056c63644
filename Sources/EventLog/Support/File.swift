import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor with the few system calls the log needs, each turning errno into a typed error.
///
/// Not buffered: every call is one system call, so the caller decides what reaches the disk and when.
final class File {
    let descriptor: Int32
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) throws(EventLogError) -> File {
        let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .system("open", path: path, errno: errno) }
        return File(descriptor: fd, path: path)
    }

    static func openForReading(_ path: String) throws(EventLogError) -> File {
        try open(path, flags: O_RDONLY)
    }

    /// The file's current size in bytes.
    func size() throws(EventLogError) -> UInt64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system("stat", path: path, errno: errno) }
        return UInt64(info.st_size)
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
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
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
        guard fsync(descriptor) == 0 else { throw .system("fsync", path: path, errno: errno) }
    }

    func truncate(to size: UInt64) throws(EventLogError) {
        guard ftruncate(descriptor, off_t(size)) == 0 else {
            throw .system("truncate", path: path, errno: errno)
        }
    }
}

/// Directory and path operations, with the same error handling as ``File``.
enum FileSystem {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Creates a directory; returns false when it already existed.
    @discardableResult
    static func makeDirectory(_ path: String) throws(EventLogError) -> Bool {
        if mkdir(path, 0o755) == 0 { return true }
        if errno == EEXIST { return false }
        throw .system("create folder", path: path, errno: errno)
    }

    /// Makes a directory's entries (created, renamed or removed files) durable.
    static func syncDirectory(_ path: String) throws(EventLogError) {
        let directory = try File.open(path, flags: O_RDONLY | O_DIRECTORY)
        try directory.sync()
    }

    /// Atomically replaces `target` with `source`.
    static func rename(_ source: String, to target: String) throws(EventLogError) {
        guard Glibc.rename(source, target) == 0 else { throw .system("rename", path: source, errno: errno) }
    }

    static func remove(_ path: String) throws(EventLogError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw .system("remove", path: path, errno: errno) }
    }

    static func contents(of directory: String) throws(EventLogError) -> [String] {
        guard let dir = opendir(directory) else { throw .system("list", path: directory, errno: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

extension FileSystem {
    /// Replaces `path` with `bytes` whole or not at all: a new temporary file beside it, fsynced, renamed
    /// over it, then the folder fsynced, so that after a crash the file holds the old bytes or the new.
    static func writeDurably(_ bytes: [UInt8], to path: String) throws(EventLogError) {
        let temporary = path + ".new"
        do {
            let file = try File.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW)
            try file.write(bytes, at: 0)
            try file.sync()
            try rename(temporary, to: path)
            try syncDirectory((path as NSString).deletingLastPathComponent)
        } catch {
            try? remove(temporary)
            throw error
        }
    }
}
