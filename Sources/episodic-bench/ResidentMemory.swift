import Foundation

/// The resident set now, and a way to start the peak (`VmHWM`) over, so that `PeakMemory` can give
/// the peak of one phase rather than of the whole process.
enum ResidentMemory {
    /// `VmRSS`, in bytes; nil where `/proc/self/status` cannot be read.
    static func currentBytes() -> UInt64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kibibytes = UInt64(line.dropFirst("VmRSS:".count).split(whereSeparator: \.isWhitespace).first ?? "")
        else { return nil }
        return kibibytes * 1024
    }

    /// Sets `VmHWM` to the current RSS (Linux 4.0 and later: `echo 5 > /proc/self/clear_refs`).
    /// Returns false where the kernel does not allow it; the peak then covers the whole process.
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }
}
