import Foundation
import Testing

@testable import CoreValues

/// The JSON scanner the log's envelopes and the payload decoder are built on, checked directly, with
/// Foundation's `JSONSerialization` as the reference where there is one.
@Suite("JSON scanner")
struct JSONTextTests {
    static let awkwardStrings: [String] = [
        "", "plain", "quote \" inside", "back\\slash", "tab\there", "line\nbreak", "\r\n", "\u{0}nul", "\u{1B}[31m",
        "\u{7F} DEL", "\u{8}\u{C} backspace and form feed", "é accents ü", "🎙️ emoji", "\u{10FFFF}", "/slash/",
        String(repeating: "eight by", count: 9) + "\"", "1234567\\", String(repeating: "x", count: 15) + "\u{1F}",
    ]

    static func literal(_ text: String, short: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        JSONText.appendString(text, to: &out, shortBackspaceAndFormFeed: short)
        return out
    }

    @Test("strings written by appendString read back through string() and decodeString, as JSONSerialization reads them",
          arguments: awkwardStrings)
    func stringsRoundTrip(text: String) throws {
        for short in [false, true] {
            let bytes = Self.literal(text, short: short)
            let reference = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String
            #expect(reference == text)
            try bytes.withUnsafeBytes { raw in
                var scanner = JSONText(raw)
                let scanned = scanner.string()
                let found = try #require(scanned)
                #expect(scanner.atEnd)
                #expect(JSONText.decodeString(UnsafeRawBufferPointer(rebasing: raw[found.range]), escaped: found.escaped) == text)
            }
        }
    }

    @Test("a surrogate pair escape reads as the one character it stands for; a lone surrogate as U+FFFD")
    func surrogates() {
        #expect(Self.decoded(#""\ud83c\udf99 on air""#) == "🎙 on air")
        #expect(Self.decoded(#""\ud83c alone""#) == "\u{FFFD} alone")
        #expect(Self.decoded(#""\u00e9\u0041""#) == "éA")
    }

    static func decoded(_ json: String) -> String? {
        Array(json.utf8).withUnsafeBytes { raw in
            var scanner = JSONText(raw)
            guard let found = scanner.string() else { return nil }
            return JSONText.decodeString(UnsafeRawBufferPointer(rebasing: raw[found.range]), escaped: found.escaped)
        }
    }

    @Test("a string with a raw control character, or without its closing quote, is refused",
          arguments: ["\"a\u{0A}b\"", "\"tab\u{09}\"", "\"open", "\"ends in escape\\\"", "no quote"])
    func malformedStrings(json: String) {
        #expect(Self.decoded(json) == nil)
    }

    @Test("the eight-byte test never misses a quote, a backslash or a control character, wherever it is in the word")
    func wordTestMissesNothing() {
        for byte in UInt8.min...UInt8.max {
            let mustFlag = byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
            for place in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[place] = byte
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                if mustFlag { #expect(JSONText.mayEndString(word), "byte \(byte) at \(place)") }
            }
        }
        let plain = Array("abcdefgh".utf8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        #expect(!JSONText.mayEndString(plain))
    }

    @Test("integers read up to Int64.max; one more, a sign or nothing is refused")
    func integers() {
        func integer(_ text: String) -> Int64? {
            Array(text.utf8).withUnsafeBytes { raw in
                var scanner = JSONText(raw)
                return scanner.integer()
            }
        }
        #expect(integer("0") == 0)
        #expect(integer(" 42,") == 42)
        #expect(integer("9223372036854775807") == Int64.max)
        #expect(integer("9223372036854775808") == nil)
        #expect(integer("-1") == nil)
        #expect(integer("") == nil)
    }

    @Test("skipValue walks every kind of value and refuses malformed ones, and nesting past 512 levels")
    func skipping() {
        func skips(_ text: String) -> Bool {
            Array(text.utf8).withUnsafeBytes { raw in
                var scanner = JSONText(raw)
                guard scanner.skipValue() else { return false }
                scanner.skipWhitespace()
                return scanner.atEnd
            }
        }
        for valid in [#"{"a":[1,-2.5e3,true,false,null,"s",{"b":{}}],"c":[]}"#, "[]", " 17 ", #""x""#, "null", "-0.0"] {
            #expect(skips(valid), "\(valid)")
        }
        for malformed in [#"{"a":}"#, "[1,]", "{\"a\" 1}", "tru", "[", #"{"a":1"#, "01x"] {
            #expect(!skips(malformed), "\(malformed)")
        }
        #expect(skips(String(repeating: "[", count: 500) + String(repeating: "]", count: 500)))
        #expect(!skips(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)))
    }

    @Test("a single-line value holds exactly one JSON value and no raw line break")
    func singleLine() {
        func single(_ text: String) -> Bool { Array(text.utf8).withUnsafeBytes { JSONText.isSingleLineValue($0) } }
        #expect(single(#"{"title":"Pilot"}"#))
        #expect(single(#"{"text":"two\nlines, escaped"}"#))
        #expect(!single("{\"a\":\n1}"))
        #expect(!single(#"{"a":1} {"b":2}"#))
        #expect(!single(""))
    }
}
