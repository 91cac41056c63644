/// A time as transcripts write it: `MM:SS`, `H:MM:SS`, either with an optional `.f`/`,f` fraction.
struct ClockTime: Equatable {
    /// Milliseconds from the start of the episode.
    var milliseconds: Int
    /// Whether a fraction was written; tells Zencastr (`00:08.36`) from plain timestamp lines (`00:00:10`).
    var hasFraction: Bool

    /// Parses `token`, which must be a time and nothing else.
    ///
    /// The leading field (minutes in `MM:SS`, hours in `H:MM:SS`) has any value up to 9 digits, so
    /// Zencastr's `75:02.10` is 75 minutes; the following fields have exactly 2 digits, below 60. A
    /// fraction of 1 to 9 digits is read as a decimal fraction of a second and truncated to milliseconds.
    init?(_ token: Substring.UTF8View) {
        var seconds = 0, fieldCount = 0
        var current = 0, digits = 0
        var index = token.startIndex
        var fractionStart: Substring.UTF8View.Index?
        while index < token.endIndex {
            let byte = token[index]
            if let digit = ClockTime.digit(byte) {
                digits += 1
                guard digits <= 9 else { return nil }
                current = current * 10 + digit
            } else if byte == UInt8(ascii: ":") {
                guard Self.fieldIsValid(digits: digits, value: current, leading: fieldCount == 0) else { return nil }
                seconds = seconds * 60 + current
                fieldCount += 1
                current = 0
                digits = 0
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") {
                fractionStart = token.index(after: index)
                break
            } else {
                return nil
            }
            token.formIndex(after: &index)
        }
        guard (1...2).contains(fieldCount), Self.fieldIsValid(digits: digits, value: current, leading: false)
        else { return nil }
        seconds = seconds * 60 + current

        var milliseconds = 0
        if let fractionStart {
            guard let fraction = Self.fractionMilliseconds(token[fractionStart...]) else { return nil }
            milliseconds = fraction
        }
        self.milliseconds = seconds * 1_000 + milliseconds
        self.hasFraction = fractionStart != nil
    }

    static func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func fieldIsValid(digits: Int, value: Int, leading: Bool) -> Bool {
        leading ? digits >= 1 : digits == 2 && value < 60
    }

    /// `5` → 500, `36` → 360, `250` → 250, `2509` → 250.
    private static func fractionMilliseconds(_ digits: Substring.UTF8View) -> Int? {
        guard (1...9).contains(digits.count) else { return nil }
        var value = 0, scale = 100
        for byte in digits {
            guard let digit = digit(byte) else { return nil }
            value += digit * scale
            scale /= 10
        }
        return value
    }
}
