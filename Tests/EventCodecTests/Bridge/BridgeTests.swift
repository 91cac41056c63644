import EventLog
import Foundation
import PodcastDomain
import TestSupport
import Testing

@testable import EventCodec

/// Domain events to the log's proposed events and back, through a real log.
@Suite("Log and domain bridge")
struct BridgeTests {
    static let podcast = PodcastID(UUID())

    static func events() throws -> [DomainEvent] {
        let created = try PodcastDecider.decide(.create(id: podcast, name: "Release Notes", at: TestClock.start), .initial)
        let renamed = try PodcastDecider.decide(.rename("Release Notes \"weekly\""), PodcastDecider.fold(created))
        return created + renamed
    }

    @Test("a domain event appended as ProposedEvent(domain:) reads back as the same event, in its stream")
    func roundTripThroughTheLog() throws {
        let folder = TemporaryFolder("codec-bridge-test")
        let log = try EventLog.create(at: folder("library"))
        let events = try Self.events()
        try log.write { writer in
            try writer.append(Commit(
                events: events.map(ProposedEvent.init(domain:)), commandID: CommandID(UUID()), actor: "ana",
                timestamp: TestClock.start))
        }
        var read: [DomainEvent] = []
        try log.read(stream: StreamID(domain: Self.podcast.streamName)) { read.append(try DomainEvents.decode($0)) }
        #expect(read == events)
        #expect(events.map { StreamID(domain: $0.stream).rawValue } == [Self.podcast.streamName, Self.podcast.streamName])
    }

    @Test("a payload that is not the event's shape is an UnreadableEvent naming its position and the field")
    func unreadablePayload() throws {
        let folder = TemporaryFolder("codec-bridge-test")
        let log = try EventLog.create(at: folder("library"))
        let stream = StreamID(domain: Self.podcast.streamName)
        try log.write { writer in
            try writer.append(Commit(
                events: [
                    ProposedEvent(domain: try Self.events()[0]),
                    ProposedEvent(stream: stream, type: PodcastRenamed.type, json: #"{"podcastID":"\#(Self.podcast)","nom":"x"}"#),
                ],
                commandID: CommandID(UUID()), actor: "old-tool", timestamp: TestClock.start))
        }
        var failure: UnreadableEvent?
        try log.read(from: LogPosition(1), through: nil) { envelope in
            do { _ = try DomainEvents.decode(envelope) } catch let error as UnreadableEvent { failure = error }
        }
        let unreadable = try #require(failure)
        #expect(unreadable.position == 2)
        #expect(unreadable.description.contains("name"), "\(unreadable)")
    }
}
