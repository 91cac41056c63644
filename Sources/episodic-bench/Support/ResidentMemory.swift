import Foundation

/// The process's resident memory from Linux's `/proc/self/status`: the benchmarks promise bounded
/// memory, and this is where a leak or a whole-log buffer would show.
enum ResidentMemory {
    /// The peak resident set (`VmHWM`), in bytes; nil where `/proc/self/status` cannot be read.
    static func peakBytes() -> UInt64? { status("VmHWM") }

    /// The resident set now (`VmRSS`), in bytes.
    static func currentBytes() -> UInt64? { status("VmRSS") }

    /// Sets `VmHWM` to the current RSS (Linux 4.0 and later: `echo 5 > /proc/self/clear_refs`), so that
    /// the peak covers one phase rather than the whole process. Returns false where the kernel does
    /// not allow it; the peak then covers the whole process.
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    private static func status(_ field: String) -> UInt64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kibibytes = UInt64(line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first ?? "")
        else { return nil }
        return kibibytes * 1024
    }
}
