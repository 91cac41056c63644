import Foundation

/// Which file system a path is on, from `/proc/self/mounts`: fsync figures mean something only on a
/// real disk, so the run says which one it measured.
enum DiskDescription {
    /// For example `ext4 on /dev/vda (mounted at /)`, with a warning for file systems kept in memory.
    static func of(_ path: String) -> String {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return "unknown" }
        var best: (device: Substring, point: Substring, type: Substring)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            let point = fields[1]
            let covers = point == "/" || path == point || path.hasPrefix(point + "/")
            if covers && point.count >= (best?.point.count ?? 0) { best = (fields[0], point, fields[2]) }
        }
        guard let best else { return "unknown" }
        let warning = ["tmpfs", "ramfs"].contains(best.type) ? " -- in memory, so fsync figures mean nothing" : ""
        return "\(best.type) on \(best.device) (mounted at \(best.point))\(warning)"
    }
}
