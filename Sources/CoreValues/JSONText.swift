/// The small part of JSON the project reads and writes by hand: strings, integers, and skipping a value.
///
/// The log parses envelopes with it (without allocating, and without touching payloads); the event
/// codec's payload decoder and the reader of `episodic submit`'s scripts build on it. `package` access
/// keeps it out of the public API.
package struct JSONText {
    package let bytes: UnsafeRawBufferPointer
    package var index: Int

    package init(_ bytes: UnsafeRawBufferPointer, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    package var atEnd: Bool { index >= bytes.count }

    @inline(__always)
    package var current: UInt8 { bytes[index] }

    @inline(__always)
    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Consumes `byte` (after optional whitespace); false when something else is there.
    @inline(__always)
    package mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Reads a string; returns the range between its quotes and whether it holds escapes.
    package mutating func string() -> (range: Range<Int>, escaped: Bool)? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        var escaped = false
        while index < bytes.count {
            // Eight bytes at a time while none of them ends the string, starts an escape or is refused.
            while index + 8 <= bytes.count, !Self.mayEndString(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
            }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return (start..<(index - 1), escaped)
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                index += 2
                continue
            }
            if byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    /// True when one of the eight bytes of `word` may be a quote, a backslash or a control character
    /// (a byte below 0x20). Bit tricks that find a zero byte, which may flag a byte after a match but never
    /// miss one: strings are most of a log line's bytes, and this reads them a word at a time.
    @inline(__always)
    static func mayEndString(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let found = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word)
        return found & (ones &* 0x80) != 0
    }

    /// Reads a non-negative integer that fits in 63 bits.
    package mutating func integer() -> Int64? {
        skipWhitespace()
        var value: Int64 = 0
        let start = index
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            index += 1
        }
        return index > start ? value : nil
    }

    /// Skips one JSON value of any kind, checking its structure; false when it is malformed.
    package mutating func skipValue(depth: Int = 0) -> Bool {
        skipWhitespace()
        guard index < bytes.count, depth < 512 else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return string() != nil
        case UInt8(ascii: "{"):
            index += 1
            if consume(UInt8(ascii: "}")) { return true }
            repeat {
                guard string() != nil, consume(UInt8(ascii: ":")), skipValue(depth: depth + 1) else { return false }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            index += 1
            if consume(UInt8(ascii: "]")) { return true }
            repeat {
                guard skipValue(depth: depth + 1) else { return false }
            } while consume(UInt8(ascii: ","))
            return consume(UInt8(ascii: "]"))
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return number()
        }
    }

    /// Consumes `word` (`true`, `false`, `null`) where it stands; false when something else is there.
    package mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for i in 0..<count where bytes[index + i] != word.utf8Start[i] { return false }
        index += count
        return true
    }

    /// Skips a number; true when there was one.
    package mutating func number() -> Bool {
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
                UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                index += 1
            default:
                return index > start
            }
        }
        return index > start
    }

    /// Checks that `bytes` hold exactly one JSON value, with no raw line break anywhere.
    package static func isSingleLineValue(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.contains(0x0A), !bytes.contains(0x0D) else { return false }
        var text = JSONText(bytes)
        guard text.skipValue() else { return false }
        text.skipWhitespace()
        return text.atEnd
    }

    // MARK: Strings

    /// Appends `text` as a JSON string literal, quotes included. `shortBackspaceAndFormFeed` writes those
    /// two as `\b` and `\f`, as Foundation's `JSONEncoder` does, rather than `\u0008` and `\u000c`, as
    /// the log's envelopes do. Text with nothing to escape, nearly all of it, is copied whole.
    package static func appendString(_ text: String, to out: inout [UInt8], shortBackspaceAndFormFeed: Bool = false) {
        var text = text
        text.withUTF8 { utf8 in
            out.append(UInt8(ascii: "\""))
            if needsEscaping(UnsafeRawBufferPointer(utf8)) {
                appendEscaped(utf8, to: &out, shortBackspaceAndFormFeed: shortBackspaceAndFormFeed)
            } else {
                out.append(contentsOf: utf8)
            }
            out.append(UInt8(ascii: "\""))
        }
    }

    /// True when `utf8` holds a quote, a backslash or a control character, eight bytes at a time.
    private static func needsEscaping(_ utf8: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 8 <= utf8.count {
            if mayEndString(utf8.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return true }
            index += 8
        }
        return utf8[index...].contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }
    }

    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], shortBackspaceAndFormFeed: Bool) {
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x08 where shortBackspaceAndFormFeed: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C where shortBackspaceAndFormFeed: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
    }

    /// The text of a string literal's content (the part between the quotes).
    package static func decodeString(_ content: UnsafeRawBufferPointer, escaped: Bool) -> String {
        guard escaped else { return String(decoding: content, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(content.count)
        var i = 0
        while i < content.count {
            let byte = content[i]
            guard byte == UInt8(ascii: "\\"), i + 1 < content.count else {
                out.append(byte)
                i += 1
                continue
            }
            let kind = content[i + 1]
            i += 2
            switch kind {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hexUnit(content, at: i) else { continue }
                i += 4
                if (0xD800..<0xDC00).contains(scalar), i + 6 <= content.count, content[i] == 0x5C,
                    content[i + 1] == UInt8(ascii: "u"), let low = hexUnit(content, at: i + 2), (0xDC00..<0xE000).contains(low)
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(character).utf8))
            default: out.append(kind)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The four hex digits at `at` in `content` as a UTF-16 unit; nil when they are not four hex digits.
    static func hexUnit(_ content: UnsafeRawBufferPointer, at: Int) -> UInt32? {
        guard at + 4 <= content.count else { return nil }
        var value: UInt32 = 0
        for j in at..<(at + 4) {
            let c = content[j]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Whether every backslash in a string literal's content starts one of JSON's escapes, and every
    /// `\u` that is half of a surrogate pair is its first half, with the second right after it: for
    /// readers that must refuse what JSON does not allow, since ``decodeString(_:escaped:)`` reads past it.
    package static func hasOnlyJSONEscapes(_ content: UnsafeRawBufferPointer) -> Bool {
        func unit(at index: Int) -> UInt32? {
            guard index + 1 < content.count, content[index] == UInt8(ascii: "\\"), content[index + 1] == UInt8(ascii: "u") else { return nil }
            return hexUnit(content, at: index + 2)
        }
        var index = 0
        while index < content.count {
            guard content[index] == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            guard index + 1 < content.count else { return false }
            switch content[index + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 2
            case UInt8(ascii: "u"):
                guard let first = unit(at: index) else { return false }
                switch first {
                case 0xD800..<0xDC00:
                    guard let second = unit(at: index + 6), (0xDC00..<0xE000).contains(second) else { return false }
                    index += 12
                case 0xDC00..<0xE000: return false
                default: index += 6
                }
            default: return false
            }
        }
        return true
    }
}
