import Foundation
import PodcastDomain
import Testing

@testable import EventCodec

@Suite("Payload decoder")
struct PayloadDecoderTests {
    struct Sample: Codable, Equatable {
        var text: String
        var count: Int
        var ratio: Double
        var flag: Bool
        var missing: String?
        var present: String?
        var list: [Int]
        var nested: [String: Int]
    }

    func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
        try Array(json.utf8).withUnsafeBytes { try PayloadDecoder.decode(type, from: $0) }
    }

    @Test("it reads what JSONDecoder reads: escapes, negatives, exponents, optionals, arrays, nested objects, unknown keys")
    func agreesWithJSONDecoder() throws {
        let json = #"{"count":-42,"flag":true,"list":[1,2,3],"nested":{"a":1},"present":"é\"\\\n\u00e9\ud83c\udde8","ratio":1.5e-3,"text":"Café","unknown":{"x":[null]}}"#
        let ours = try decode(Sample.self, json)
        #expect(ours == (try JSONDecoder().decode(Sample.self, from: Data(json.utf8))))
        #expect(ours.present == "é\"\\\né🇨")
        #expect(ours.missing == nil)
    }

    @Test("malformed JSON, wrong types, missing keys and out-of-range numbers are refused")
    func refusals() {
        for json in [#"{"count":1"#, #"{"count":"1"}"#, #"{}"#, #"{"count":1.5}"#, #"{"count":1} x"#, "[", #"{"count":99999999999999999999}"#] {
            struct One: Decodable { let count: Int }
            #expect(throws: (any Error).self, "\(json)") { try decode(One.self, json) }
        }
        struct Small: Decodable { let count: Int8 }
        #expect(throws: (any Error).self) { try decode(Small.self, #"{"count":300}"#) }
    }

    @Test("a number too large for its type is refused, as JSONDecoder refuses it, not read as infinity")
    func overflowingNumbers() throws {
        struct Ratio: Decodable { let ratio: Double }
        struct Narrow: Decodable { let ratio: Float }
        for json in [#"{"ratio":1e400}"#, #"{"ratio":-1e400}"#, #"{"ratio":1\#(String(repeating: "0", count: 400))}"#] {
            #expect(throws: (any Error).self, "\(json)") { try decode(Ratio.self, json) }
            #expect(throws: (any Error).self, "\(json)") { try JSONDecoder().decode(Ratio.self, from: Data(json.utf8)) }
        }
        #expect(throws: (any Error).self) { try decode(Narrow.self, #"{"ratio":1e39}"#) }
        #expect(try decode(Ratio.self, #"{"ratio":1e300}"#).ratio == 1e300)
    }

}
