import EventCodec
import Foundation
import Testing

@testable import PodcastDomain

/// An event of every type, as the inverse tests make them, through the event codec: what the log
/// writes and reads of each.
@Suite("Every event type through the codec")
struct EveryEventTypeCodingTests {
    static var events: [DomainEvent] { (InversesTests.podcastCases + InversesTests.episodeCases).map(\.event) }

    @Test("an event of every type is written as JSONEncoder writes it")
    func writtenAsJSONEncoderWrites() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for event in Self.events {
            #expect(EventCoding.encode(event) == Array(try encoder.encode(event.payload)), "\(event.type)")
        }
    }

    @Test("every event type reads back through it unchanged")
    func readsBackUnchanged() throws {
        for event in Self.events {
            let json = EventCoding.encode(event)
            let fast = try EventCoding.decode(type: event.type, schemaVersion: event.schemaVersion, payload: json)
            #expect(fast == event)
        }
    }
}
