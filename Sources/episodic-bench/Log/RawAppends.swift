import CoreValues
import Foundation

/// Fixed-size records appended to a plain file, each followed by fsync: the disk's own rate for the I/O
/// a durable commit does, with nothing of the log around it. Written like the log writes a frame
/// (pwrite at the end, then fsync), so that both grow their file.
struct RawAppends {
    let path: String
    private let record: [UInt8]
    private var size: off_t = 0

    /// Random bytes, in case the virtual disk below compresses or deduplicates.
    init(path: String, recordBytes: Int, random: inout SplitMix64) {
        self.path = path
        record = (0..<recordBytes).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// Appends `count` records; returns appends per second.
    mutating func round(_ count: Int) throws -> Double {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw BenchFailure.system("open", path) }
        defer { close(descriptor) }
        let seconds = try timed {
            for _ in 0..<count {
                let written = record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, size) }
                guard written == record.count else { throw BenchFailure.system("write", path) }
                guard fsync(descriptor) == 0 else { throw BenchFailure.system("fsync", path) }
                size += off_t(written)
            }
        }
        return Double(count) / seconds
    }
}
