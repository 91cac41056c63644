import Foundation

/// An instant in UTC, to the millisecond: when a command was issued, when an episode was created.
///
/// Milliseconds rather than `Date`, so that a value survives JSON unchanged (no floating point) and
/// compares exactly. Written as 24 characters, `2026-11-21T04:53:55.123Z`, in events and in the log's
/// envelopes; the fixed width keeps both directions cheap: no formatter, no locale, no allocation.
/// Years 1970 to 9999.
public struct Timestamp: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let rawValue: Int64

    public static let textLength = 24
    /// The range a timestamp can take: 1970-01-01T00:00:00.000Z up to, not including, the year 10000.
    public static let validMilliseconds: Range<Int64> = 0..<253_402_300_800_000

    public init?(rawValue: Int64) {
        guard Self.validMilliseconds.contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// The millisecond `date` falls in; nil outside the years 1970 to 9999.
    public init?(_ date: Date) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard milliseconds >= 0, milliseconds < Double(Self.validMilliseconds.upperBound) else { return nil }
        self.init(rawValue: Int64(milliseconds))
    }

    /// Parses the 24-character form.
    public init?(text: String) {
        var text = text
        guard let milliseconds = text.withUTF8({ Self.parse(UnsafeRawBufferPointer($0)) }) else { return nil }
        self.init(rawValue: milliseconds)
    }

    public var date: Date { Date(timeIntervalSince1970: Double(rawValue) / 1000) }

    public var text: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.textLength)
        Self.append(milliseconds: rawValue, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { text }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Timestamp(text: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(text) is not a time of the form 2026-01-31T12:00:00.000Z")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    // MARK: The text form, on bytes

    /// Appends the 24 characters for `milliseconds` (years 0000 to 9999).
    public static func append(milliseconds: Int64, to out: inout [UInt8]) {
        let (days, msOfDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (dayCount, ms) = msOfDay < 0 ? (days - 1, msOfDay + 86_400_000) : (days, msOfDay)
        let (year, month, day) = civil(fromDays: dayCount)
        func digits(_ value: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4); out.append(UInt8(ascii: "-"))
        digits(month, 2); out.append(UInt8(ascii: "-"))
        digits(day, 2); out.append(UInt8(ascii: "T"))
        digits(ms / 3_600_000, 2); out.append(UInt8(ascii: ":"))
        digits(ms / 60_000 % 60, 2); out.append(UInt8(ascii: ":"))
        digits(ms / 1000 % 60, 2); out.append(UInt8(ascii: "."))
        digits(ms % 1000, 3); out.append(UInt8(ascii: "Z"))
    }

    /// Parses the 24-character form into milliseconds; nil when `text` is not exactly that.
    public static func parse(_ text: UnsafeRawBufferPointer) -> Int64? {
        guard text.count == textLength, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
            text[10] == UInt8(ascii: "T"), text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
            text[19] == UInt8(ascii: "."), text[23] == UInt8(ascii: "Z")
        else { return nil }
        // Every other byte must be a digit. A byte below "0" wraps around to 10 or more, so the largest
        // "digit" met, checked once at the end, says whether all were digits, without a branch for each.
        var largest: UInt8 = 0
        func number(_ start: Int, _ width: Int) -> Int64 {
            var value: Int64 = 0
            for i in start..<(start + width) {
                let digit = text[i] &- UInt8(ascii: "0")
                largest = max(largest, digit)
                value = value &* 10 &+ Int64(digit)  // At most four digits: it cannot overflow.
            }
            return value
        }
        let year = number(0, 4), month = number(5, 2), day = number(8, 2)
        let hour = number(11, 2), minute = number(14, 2), second = number(17, 2), milliseconds = number(20, 3)
        guard largest <= 9, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24,
            minute < 60, second < 60
        else { return nil }
        // Years 0 to 9999 are some 3.7 million days: nothing here can overflow.
        let days = daysFromCivil(year: year, month: month, day: day)
        return ((days &* 24 &+ hour) &* 60 &+ minute) &* 60_000 &+ second &* 1000 &+ milliseconds
    }

    /// 28 to 31 (proleptic Gregorian: a year divisible by 4 is leap, but not by 100 unless by 400).
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return monthLengths[Int(month - 1)] + (month == 2 && leap ? 1 : 0)
    }

    /// A table rather than a switch: times in a list have random months, and a branch per month would
    /// be mispredicted.
    private static let monthLengths: [Int64] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    // Howard Hinnant's civil-calendar algorithms (proleptic Gregorian).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
