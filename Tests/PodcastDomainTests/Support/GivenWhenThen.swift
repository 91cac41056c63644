import CoreValues
import EventCodec
import Foundation
import Testing

@testable import PodcastDomain

/// Given events, when a command, then events or a refusal: the shape of every decider test.
///
/// `then` also checks what every accepted event must satisfy: it survives a JSON round trip unchanged.
func Given(_ podcastHistory: [DomainEvent] = []) -> PodcastSpec {
    PodcastSpec(history: podcastHistory)
}

/// An episode's history, in a podcast with its own history.
func Given(_ podcastHistory: [DomainEvent], episode episodeHistory: [DomainEvent]) -> EpisodeSpec {
    EpisodeSpec(podcastHistory: podcastHistory, history: episodeHistory)
}

struct PodcastSpec {
    let history: [DomainEvent]
    var facts = PodcastFacts()

    func facts(otherPodcastNames: [PodcastID: String] = [:], liveEpisodes: [EpisodeID] = []) -> PodcastSpec {
        var copy = self
        copy.facts = PodcastFacts(otherPodcastNames: otherPodcastNames, liveEpisodes: liveEpisodes)
        return copy
    }

    func when(_ command: PodcastCommand) -> When {
        let state = PodcastDecider.fold(history)
        return When(result: Result { () throws(DomainError) in try PodcastDecider.decide(command, state, facts) })
    }
}

struct EpisodeSpec {
    let podcastHistory: [DomainEvent]
    let history: [DomainEvent]
    var otherNumbers: [Int: EpisodeID] = [:]
    var transcriptCheck: TranscriptCheck?

    func numbers(_ numbers: [Int: EpisodeID]) -> EpisodeSpec {
        var copy = self
        copy.otherNumbers = numbers
        return copy
    }

    /// With a transcript checked ahead of the decision.
    func checked(_ check: TranscriptCheck) -> EpisodeSpec {
        var copy = self
        copy.transcriptCheck = check
        return copy
    }

    func when(_ command: EpisodeCommand) -> When {
        let state = EpisodeDecider.fold(history)
        let facts = EpisodeFacts(podcast: PodcastDecider.fold(podcastHistory), otherNumbers: otherNumbers, transcriptCheck: transcriptCheck)
        return When(result: Result { () throws(DomainError) in try EpisodeDecider.decide(command, state, facts) })
    }
}

struct When {
    let result: Result<[DomainEvent], DomainError>

    /// The command is accepted and produces exactly `expected`.
    func then(_ expected: [DomainEvent], sourceLocation: SourceLocation = #_sourceLocation) {
        switch result {
        case .success(let events):
            #expect(events == expected, sourceLocation: sourceLocation)
            for event in events { expectRoundTrip(event, sourceLocation: sourceLocation) }
        case .failure(let error):
            Issue.record("refused: \(error)", sourceLocation: sourceLocation)
        }
    }

    /// The command is accepted and changes nothing.
    func thenNothingHappens(sourceLocation: SourceLocation = #_sourceLocation) {
        then([], sourceLocation: sourceLocation)
    }

    /// The command is refused with `expected`, whose message says what to do.
    func thenRefused(_ expected: DomainError, sourceLocation: SourceLocation = #_sourceLocation) {
        switch result {
        case .success(let events):
            Issue.record("accepted with \(events), expected \(expected)", sourceLocation: sourceLocation)
        case .failure(let error):
            #expect(error == expected, sourceLocation: sourceLocation)
            #expect(error.description.hasSuffix("."), sourceLocation: sourceLocation)
        }
    }

    /// The events, for tests that look inside them.
    var events: [DomainEvent] { (try? result.get()) ?? [] }
}

/// Encodes and decodes `event` through the log's JSON form; it must come back equal.
func expectRoundTrip(_ event: DomainEvent, sourceLocation: SourceLocation = #_sourceLocation) {
    let json = EventCoding.encode(event)
    #expect(!json.contains(0x0A), "payloads are one line", sourceLocation: sourceLocation)
    do {
        let decoded = try EventCoding.decode(type: event.type, schemaVersion: event.schemaVersion, payload: json)
        #expect(decoded == event, sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(event.type) does not decode: \(error)", sourceLocation: sourceLocation)
    }
}
