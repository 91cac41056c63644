import CoreValues

/// Any JSON value, so that a script line's fields can be checked one by one: their presence, their
/// type, and that no unknown one slipped in.
enum JSONValue: Encodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// Why bytes are not one JSON value.
    enum Failure: Error, Equatable {
        /// Not JSON at all, or JSON this reader refuses (see ``parse(_:)``).
        case malformed
        /// An object names `key` twice: which one was meant cannot be told.
        case repeatedKey(String)
    }

    /// The one value `bytes` hold, white space around it allowed; anything else is refused, as strictly
    /// as RFC 8259 reads: a string with an escape JSON has not, or half of a surrogate pair; a number
    /// outside JSON's grammar or beyond a `Double`; an object that names a key twice; nesting deeper than
    /// 512.
    ///
    /// Read with ``JSONText``, as the log's envelopes are: Foundation's `JSONDecoder` took a tenth of
    /// `episodic submit`'s time to read its script.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> JSONValue {
        var text = JSONText(bytes)
        guard let value = try value(&text, depth: 0) else { throw .malformed }
        text.skipWhitespace()
        guard text.atEnd else { throw .malformed }
        return value
    }

    /// The value at `text`'s index; nil when it is malformed.
    private static func value(_ text: inout JSONText, depth: Int) throws(Failure) -> JSONValue? {
        text.skipWhitespace()
        guard !text.atEnd, depth < 512 else { return nil }
        switch text.current {
        case UInt8(ascii: "\""):
            return string(&text).map(JSONValue.string)
        case UInt8(ascii: "{"):
            text.index += 1
            var fields: [String: JSONValue] = [:]
            if text.consume(UInt8(ascii: "}")) { return .object(fields) }
            repeat {
                guard let key = string(&text), text.consume(UInt8(ascii: ":")), let field = try value(&text, depth: depth + 1)
                else { return nil }
                guard fields.updateValue(field, forKey: key) == nil else { throw .repeatedKey(key) }
            } while text.consume(UInt8(ascii: ","))
            return text.consume(UInt8(ascii: "}")) ? .object(fields) : nil
        case UInt8(ascii: "["):
            text.index += 1
            var elements: [JSONValue] = []
            if text.consume(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                guard let element = try value(&text, depth: depth + 1) else { return nil }
                elements.append(element)
            } while text.consume(UInt8(ascii: ","))
            return text.consume(UInt8(ascii: "]")) ? .array(elements) : nil
        case UInt8(ascii: "t"): return text.literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return text.literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return text.literal("null") ? .null : nil
        default: return number(&text)
        }
    }

    /// A string's text; nil when it is malformed or holds an escape JSON does not have.
    private static func string(_ text: inout JSONText) -> String? {
        guard let (range, escaped) = text.string() else { return nil }
        let content = UnsafeRawBufferPointer(rebasing: text.bytes[range])
        guard !escaped || JSONText.hasOnlyJSONEscapes(content) else { return nil }
        return JSONText.decodeString(content, escaped: escaped)
    }

    /// A number in JSON's grammar, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, that a `Double` holds.
    private static func number(_ text: inout JSONText) -> JSONValue? {
        let start = text.index
        guard text.number() else { return nil }
        let digits = UnsafeRawBufferPointer(rebasing: text.bytes[start..<text.index])
        var at = 0
        func skipDigits() -> Int {
            let from = at
            while at < digits.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digits[at]) { at += 1 }
            return at - from
        }
        if digits[at] == UInt8(ascii: "-") { at += 1 }
        let leadingZero = at < digits.count && digits[at] == UInt8(ascii: "0")
        let whole = skipDigits()
        guard whole > 0, !leadingZero || whole == 1 else { return nil }
        if at < digits.count, digits[at] == UInt8(ascii: ".") {
            at += 1
            guard skipDigits() > 0 else { return nil }
        }
        if at < digits.count, digits[at] | 0x20 == UInt8(ascii: "e") {
            at += 1
            if at < digits.count, digits[at] == UInt8(ascii: "+") || digits[at] == UInt8(ascii: "-") { at += 1 }
            guard skipDigits() > 0 else { return nil }
        }
        guard at == digits.count, let value = Double(String(decoding: digits, as: UTF8.self)), value.isFinite else { return nil }
        return .number(value)
    }
}
