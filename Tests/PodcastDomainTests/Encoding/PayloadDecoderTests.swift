import Foundation
import Testing

@testable import PodcastDomain

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

    @Test("every event type reads back through it unchanged (the samples of the inverse tests)")
    func everyEventType() throws {
        for (_, event) in InversesTests.podcastCases + InversesTests.episodeCases {
            let json = EventCoding.encode(event)
            let fast = try EventCoding.decode(type: event.type, schemaVersion: event.schemaVersion, payload: json)
            #expect(fast == event)
        }
    }
}

@Suite("Identifiers")
struct IdentifierTests {
    @Test("ids parse in either case, print in lowercase, and refuse anything else")
    func parsing() {
        let id = PodcastID("0F8E2A10-7B4E-4E1A-8D2C-5A6B7C8D9E0F")
        #expect(id?.description == "0f8e2a10-7b4e-4e1a-8d2c-5a6b7c8d9e0f")
        #expect(PodcastID("0f8e2a10-7b4e-4e1a-8d2c-5a6b7c8d9e0f") == id)
        #expect(id?.streamName == "podcast-0f8e2a10-7b4e-4e1a-8d2c-5a6b7c8d9e0f")
        for bad in ["", "0f8e2a10-7b4e-4e1a-8d2c-5a6b7c8d9e0", "0f8e2a10-7b4e-4e1a-8d2c_5a6b7c8d9e0f",
                    "0f8e2a10-7b4e-4e1a-8d2c-5a6b7c8d9e0g", "0f8e2a107b4e-4e1a-8d2c-5a6b7c8d9e0f0"] {
            #expect(PodcastID(bad) == nil, "\(bad)")
        }
        for neighbour in ["/", ":", "@", "G", "`", "g", " "] {
            #expect(PodcastID("0f8e2a10-7b4e-4e1a-8d2c-5a6b7c8d9e0" + neighbour) == nil, "\(neighbour)")
        }
        let uuid = UUID()
        #expect(EpisodeID(uuid.uuidString)?.rawValue == uuid)
    }

    @Test("ids print as Foundation prints them, in lowercase, sort as that text, and come back from their stream names")
    func printingAndStreamNames() {
        var previous = EpisodeID(UUID())
        for _ in 0..<1_000 {
            let uuid = UUID()
            let id = EpisodeID(uuid)
            #expect(id.description == uuid.uuidString.lowercased())
            #expect((id < previous) == (id.description < previous.description))
            previous = id
            var stream = id.streamName
            stream.withUTF8 { name in
                #expect(EpisodeID(streamName: UnsafeRawBufferPointer(name)) == id)
                #expect(PodcastID(streamName: UnsafeRawBufferPointer(name)) == nil)
            }
        }
    }
}
