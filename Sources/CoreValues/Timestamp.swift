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
    ///
    /// It reads the text as three 8-byte words and checks all its separators and digits at once: a list
    /// parses thirty thousand of these, and a replay a million.
    public static func parse(_ text: UnsafeRawBufferPointer) -> Int64? {
        guard text.count == textLength else { return nil }
        let words = (
            text.loadUnaligned(fromByteOffset: 0, as: UInt64.self).littleEndian,
            text.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian,
            text.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian)
        guard words.0 & layout.separators.0 == layout.expected.0, words.1 & layout.separators.1 == layout.expected.1,
            words.2 & layout.separators.2 == layout.expected.2, isDigits(words.0, ~layout.separators.0),
            isDigits(words.1, ~layout.separators.1), isDigits(words.2, ~layout.separators.2)
        else { return nil }
        // The digit at byte `i` of the text.
        func digit(_ i: Int) -> Int64 {
            let word = i < 8 ? words.0 : i < 16 ? words.1 : words.2
            return Int64(truncatingIfNeeded: word >> (8 * UInt64(i % 8)) & 0x0F)
        }
        let year = digit(0) &* 1000 &+ digit(1) &* 100 &+ digit(2) &* 10 &+ digit(3)
        let month = digit(5) &* 10 &+ digit(6), day = digit(8) &* 10 &+ digit(9)
        let hour = digit(11) &* 10 &+ digit(12), minute = digit(14) &* 10 &+ digit(15), second = digit(17) &* 10 &+ digit(18)
        let milliseconds = digit(20) &* 100 &+ digit(21) &* 10 &+ digit(22)
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 60
        else { return nil }
        // Years 0 to 9999 are some 3.7 million days: nothing here can overflow.
        let days = daysFromCivil(year: year, month: month, day: day)
        return ((days &* 24 &+ hour) &* 60 &+ minute) &* 60_000 &+ second &* 1000 &+ milliseconds
    }

    /// Where the separators of the text form are in its three words (`-`, `-`; `T`, `:`; `:`, `.`, `Z`),
    /// as masks, and what they must hold.
    private static let layout = (
        separators: (UInt64(0xFF) << 32 | 0xFF << 56, UInt64(0xFF) << 16 | 0xFF << 40, UInt64(0xFF) | 0xFF << 24 | 0xFF << 56),
        expected: (
            UInt64(UInt8(ascii: "-")) << 32 | UInt64(UInt8(ascii: "-")) << 56,
            UInt64(UInt8(ascii: "T")) << 16 | UInt64(UInt8(ascii: ":")) << 40,
            UInt64(UInt8(ascii: ":")) | UInt64(UInt8(ascii: ".")) << 24 | UInt64(UInt8(ascii: "Z")) << 56))

    /// True when every byte of `word` under `mask` is an ASCII digit: its high nibble is 3, and adding 6
    /// to its low nibble does not carry (it is at most 9).
    private static func isDigits(_ word: UInt64, _ mask: UInt64) -> Bool {
        let highs = word & 0xF0F0_F0F0_F0F0_F0F0 & mask
        let lows = word & 0x0F0F_0F0F_0F0F_0F0F
        return highs == 0x3030_3030_3030_3030 & mask && (lows &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010 & mask == 0
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
