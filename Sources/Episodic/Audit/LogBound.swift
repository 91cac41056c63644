import CoreValues
import EventLog
import Foundation

/// A point in the log's history, as a user gives it: a position, or a time.
public enum LogBound: Hashable, Sendable, CustomStringConvertible {
    case position(LogPosition)
    case time(Timestamp)

    /// `1234` is a position; `2026-11-21`, `2026-11-21T18:30:00Z` or `2026-11-21T18:30:00.000Z` a time
    /// (UTC); `now`, `today`, `yesterday`, a weekday (`monday`, `last friday`: its most recent start,
    /// today's included) and `2 days ago` (seconds to weeks; `an hour ago`) are read as people mean them,
    /// days starting at midnight in `timeZone`, counted back from `now`.
    public init?(_ text: String, now: Timestamp, timeZone: TimeZone) {
        let trimmed = String(text.trimmingSpaces)
        if let position = UInt64(trimmed) {
            self = .position(LogPosition(position))
        } else if let time = Self.time(trimmed) ?? NaturalTime(trimmed, now: now, timeZone: timeZone)?.time {
            self = .time(time)
        } else {
            return nil
        }
    }

    /// A publish date as a user gives it: `2026-11-21` or `2026-11-21T18:30:00Z` (UTC), or looking ahead
    /// from `now`: `today`, `tomorrow`, `friday` or `next friday` (the coming one), `in 2 weeks`, each
    /// the date the calendar of `timeZone` names, as a calendar day (midnight UTC, as `2026-11-21` is);
    /// `in 3 hours` an instant. Nil for anything else.
    public static func upcoming(_ text: String, now: Timestamp, timeZone: TimeZone) -> Timestamp? {
        let trimmed = String(text.trimmingSpaces)
        return time(trimmed) ?? NaturalTime(upcoming: trimmed, now: now, timeZone: timeZone)?.time
    }

    /// Whether an event at `position`, committed at `time`, is at or before this bound.
    func admits(position: LogPosition, time: Timestamp) -> Bool {
        switch self {
        case .position(let bound): position <= bound
        case .time(let bound): time <= bound
        }
    }

    /// Whether an event is at or after this bound.
    func precedes(position: LogPosition, time: Timestamp) -> Bool {
        switch self {
        case .position(let bound): position >= bound
        case .time(let bound): time >= bound
        }
    }

    public var description: String {
        switch self {
        case .position(let position): "position \(position)"
        case .time(let time): time.text
        }
    }

    /// A date (midnight UTC) or an ISO 8601 time.
    public static func time(_ text: String) -> Timestamp? {
        if let time = Timestamp(text: text) { return time }
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return Timestamp(date) }
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: text).flatMap(Timestamp.init)
    }
}
