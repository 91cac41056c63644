import CoreValues
import Foundation

/// A time as people say it, looking back (`yesterday`, `monday`, `3 hours ago`) or ahead (`tomorrow`,
/// `next friday`, `in 2 weeks`). Days begin at local midnight; the clock and the zone are given, so
/// that the same words always mean the same time for the same `now`.
struct NaturalTime {
    let time: Timestamp

    /// Looking back, as for `--since`: `now`, `today`, `yesterday`, a weekday (`monday`, `last monday`:
    /// its most recent start, today's included), `2 days ago` (seconds to weeks).
    init?(_ text: String, now: Timestamp, timeZone: TimeZone) {
        self.init(text, now: now, timeZone: timeZone) { words, calendar, today in
            switch words {
            case ["now"]: return now.date
            case ["today"]: return today
            case ["yesterday"]: return calendar.date(byAdding: .day, value: -1, to: today)
            case let words where words.last == "ago" && words.count == 3:
                guard let count = Self.count(words[0]), let unit = Self.units[Self.singular(words[1])] else { return nil }
                return now.date.addingTimeInterval(-Double(count) * unit)
            case let words where (words.count == 1 || (words.count == 2 && words[0] == "last")):
                guard let weekday = Self.weekday(words.last!) else { return nil }
                let back = (calendar.component(.weekday, from: today) - weekday + 7) % 7
                return calendar.date(byAdding: .day, value: -back, to: today)
            default: return nil
            }
        }
    }

    /// Looking ahead, as for a publish date: `today`, `tomorrow`, a weekday (`friday`, `next friday`:
    /// the next one, today excluded), `in 2 weeks` (days, weeks and months), each the day as the local
    /// calendar counts it, given as a calendar day: midnight UTC of that date, as publish dates are
    /// written (`2026-11-21`); and `now` or `in 3 hours` (seconds to hours), an instant.
    init?(upcoming text: String, now: Timestamp, timeZone: TimeZone) {
        self.init(text, now: now, timeZone: timeZone) { words, calendar, today in
            func day(_ offset: DateComponents) -> Date? {
                calendar.date(byAdding: offset, to: today).flatMap { Self.calendarDay(of: $0, in: calendar) }
            }
            switch words {
            case ["now"]: return now.date
            case ["today"]: return day(DateComponents(day: 0))
            case ["tomorrow"]: return day(DateComponents(day: 1))
            case let words where words.first == "in" && words.count == 3:
                guard let count = Self.count(words[1]) else { return nil }
                switch Self.singular(words[2]) {
                case "day": return day(DateComponents(day: count))
                case "week": return day(DateComponents(day: 7 * count))
                case "month": return day(DateComponents(month: count))
                case let unit: return Self.units[unit].map { now.date.addingTimeInterval(Double(count) * $0) }
                }
            case let words where (words.count == 1 || (words.count == 2 && words[0] == "next")):
                guard let weekday = Self.weekday(words.last!) else { return nil }
                return day(DateComponents(day: (weekday - calendar.component(.weekday, from: today) + 6) % 7 + 1))
            default: return nil
            }
        }
    }

    /// Midnight UTC of the date `time` falls on in `calendar`'s zone.
    private static func calendarDay(of time: Date, in calendar: Calendar) -> Date? {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        return utc.date(from: calendar.dateComponents([.year, .month, .day], from: time))
    }

    /// The time `read` makes of the lowercased words of `text`, given the calendar of `timeZone` and
    /// the start of today in it.
    private init?(
        _ text: String, now: Timestamp, timeZone: TimeZone, read: (_ words: [String], _ calendar: Calendar, _ today: Date) -> Date?
    ) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard let date = read(words, calendar, calendar.startOfDay(for: now.date)), let time = Timestamp(date) else { return nil }
        self.time = time
    }

    /// A count in words: `3`, or `a` / `an` for one.
    private static func count(_ word: String) -> Int? {
        guard let count = Int(word) ?? (["a", "an"].contains(word) ? 1 : nil), count >= 0 else { return nil }
        return count
    }

    /// `days` as `day`: a unit named in the plural.
    private static func singular(_ word: String) -> String { word.hasSuffix("s") ? String(word.dropLast()) : word }

    /// Seconds in each unit a time may be counted in.
    private static let units: [String: Double] = [
        "second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3_600, "day": 86_400, "week": 604_800,
    ]

    /// Calendar's weekday number (Sunday 1) of a day's name or its first three letters.
    private static func weekday(_ word: String) -> Int? {
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        return names.firstIndex { $0 == word || (word.count >= 3 && $0.hasPrefix(word)) }.map { $0 + 1 }
    }
}
