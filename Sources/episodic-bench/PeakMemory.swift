import Foundation

/// The process's peak resident set size, from Linux's `VmHWM`: the benchmark promises constant-memory
/// reads, and this is where a leak or a whole-log buffer would show.
enum PeakMemory {
    /// In bytes; nil where `/proc/self/status` cannot be read.
    static func residentBytes() -> UInt64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kibibytes = UInt64(line.dropFirst("VmHWM:".count).split(whereSeparator: \.isWhitespace).first ?? "")
        else { return nil }
        return kibibytes * 1024
    }
}
