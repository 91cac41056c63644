import Episodic

/// How long ago something happened, as people say it: `just now`, `2 minutes ago`, `3 days ago`.
enum RelativeTime {
    static func text(_ time: Timestamp, now: Timestamp, times: TimeText) -> String {
        let seconds = max(0, (now.rawValue - time.rawValue) / 1000)
        func ago(_ count: Int64, _ unit: String) -> String { "\(count) \(unit)\(count == 1 ? "" : "s") ago" }
        switch seconds {
        case ..<10: return "just now"
        case ..<60: return ago(seconds, "second")
        case ..<3_600: return ago(seconds / 60, "minute")
        case ..<86_400: return ago(seconds / 3_600, "hour")
        case ..<(86_400 * 60): return ago(seconds / 86_400, "day")
        default: return "on " + times.day(time)
        }
    }
}
