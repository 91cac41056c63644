import Foundation

/// Counts as a sentence says them.
enum Amount {
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    static func events(_ n: UInt64) -> String { "\(n) event\(n == 1 ? "" : "s")" }

    /// A size with its exact byte count: `6.5 KiB (6656 bytes)`.
    static func bytes(_ n: UInt64) -> String {
        n < 1024 ? size(n) : size(n) + " (\(n) bytes)"
    }

    /// A size as people read it, to a tenth of its unit: `6.5 KiB`, `512 bytes`.
    static func size(_ n: UInt64) -> String {
        guard n >= 1024 else { return "\(n) byte\(n == 1 ? "" : "s")" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(n) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f", value) + " \(units[unit])"
    }
}
