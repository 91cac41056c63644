#if canImport(Glibc)
import Glibc
#endif

/// The system calls that create, change or remove a library's files, in one place.
///
/// Every such call of the log, the stream index and the blob store goes through ``current``: the plain
/// POSIX calls in production, and in the crash-simulation test a layer that also records what reached
/// the disk and what a power cut would have lost. Reads (`pread`, `fstat`, `mmap`, listing a folder)
/// call the system directly: they change nothing a crash could lose.
///
/// Each method is the POSIX call of the same name: it returns what the call returns and leaves
/// `errno` as it would (`directory` is a descriptor or `AT_FDCWD`).
protocol FileSystemCalls: Sendable {
    func openat(_ directory: Int32, _ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    func pwrite(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: off_t) -> Int
    func ftruncate(_ descriptor: Int32, _ size: off_t) -> Int32
    func fsync(_ descriptor: Int32) -> Int32
    func mkdirat(_ directory: Int32, _ path: String, _ mode: mode_t) -> Int32
    func renameat(_ fromDirectory: Int32, _ from: String, _ toDirectory: Int32, _ to: String) -> Int32
    func unlinkat(_ directory: Int32, _ path: String, _ flags: Int32) -> Int32
}

enum FileSystemLayer {
    /// The calls of the current task. A task-local value, rather than an option handed to every type
    /// that writes, because the layer is a test's concern alone: production code never names it, and
    /// tests running in parallel each see only their own.
    @TaskLocal static var current: any FileSystemCalls = SystemCalls()
}

/// The operating system's calls, unchanged.
struct SystemCalls: FileSystemCalls {
    @inline(__always)
    func openat(_ directory: Int32, _ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        Glibc.openat(directory, path, flags, mode)
    }

    @inline(__always)
    func pwrite(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: off_t) -> Int {
        Glibc.pwrite(descriptor, bytes.baseAddress, bytes.count, offset)
    }

    @inline(__always)
    func ftruncate(_ descriptor: Int32, _ size: off_t) -> Int32 { Glibc.ftruncate(descriptor, size) }

    @inline(__always)
    func fsync(_ descriptor: Int32) -> Int32 { Glibc.fsync(descriptor) }

    @inline(__always)
    func mkdirat(_ directory: Int32, _ path: String, _ mode: mode_t) -> Int32 { Glibc.mkdirat(directory, path, mode) }

    @inline(__always)
    func renameat(_ fromDirectory: Int32, _ from: String, _ toDirectory: Int32, _ to: String) -> Int32 {
        Glibc.renameat(fromDirectory, from, toDirectory, to)
    }

    @inline(__always)
    func unlinkat(_ directory: Int32, _ path: String, _ flags: Int32) -> Int32 { Glibc.unlinkat(directory, path, flags) }
}
