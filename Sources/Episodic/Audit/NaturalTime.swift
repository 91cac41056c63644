import CoreValues
import Foundation

/// A time as people say it when they look back: `yesterday`, `monday`, `3 hours ago`. Days begin at
/// local midnight; the clock and the zone are given, so that the same words always mean the same
/// time for the same `now`.
struct NaturalTime {
    let time: Timestamp

    init?(_ text: String, now: Timestamp, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let words = text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        let today = calendar.startOfDay(for: now.date)
        let date: Date?
        switch words {
        case ["now"]: date = now.date
        case ["today"]: date = today
        case ["yesterday"]: date = calendar.date(byAdding: .day, value: -1, to: today)
        case let words where words.last == "ago" && words.count == 3:
            guard let count = Int(words[0]) ?? (["a", "an"].contains(words[0]) ? 1 : nil), count >= 0,
                  let unit = Self.units[words[1].hasSuffix("s") ? String(words[1].dropLast()) : words[1]]
            else { return nil }
            date = now.date.addingTimeInterval(-Double(count) * unit)
        case let words where (words.count == 1 || (words.count == 2 && words[0] == "last")):
            guard let weekday = Self.weekday(words.last!) else { return nil }
            let back = (calendar.component(.weekday, from: today) - weekday + 7) % 7
            date = calendar.date(byAdding: .day, value: -back, to: today)
        default: date = nil
        }
        guard let date, let time = Timestamp(date) else { return nil }
        self.time = time
    }

    /// Seconds in each unit a user may count back in.
    private static let units: [String: Double] = [
        "second": 1, "sec": 1, "minute": 60, "min": 60, "hour": 3_600, "day": 86_400, "week": 604_800,
    ]

    /// Calendar's weekday number (Sunday 1) of a day's name or its first three letters.
    private static func weekday(_ word: String) -> Int? {
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        return names.firstIndex { $0 == word || (word.count >= 3 && $0.hasPrefix(word)) }.map { $0 + 1 }
    }
}
