import CoreValues
import PropertyBased
import Testing

@testable import PodcastDomain

/// What a replay relies on to skip events: folding the needed ones, from any state, in the order kept
/// or in log order, gives what folding all of them gives.
@Suite("Needed events")
struct NeededEventsTests {
    /// An event of every type, with values that differ where types share a field.
    static let podcastEvents = InversesTests.podcastCases.map(\.event)
    static let episodeEvents = InversesTests.episodeCases.map(\.event)

    /// The events of `events` that are kept, in the order kept and in log order.
    static func kept<Field>(_ events: [DomainEvent], _ effects: [String: EventEffect<Field>]) -> (kept: [DomainEvent], logOrder: [DomainEvent]) {
        var needed = NeededEvents<Field, Int>()
        for (index, event) in events.enumerated() { needed.append(index, effect: effects[event.type]) }
        return (needed.elements.map { events[$0] }, needed.elements.sorted().map { events[$0] })
    }

    @Test("folding the needed events gives what folding every event gives, from any state, in either order")
    func foldsAgree() async {
        await propertyCheck(count: 1_000, input: Gen.int(in: 0...10_000).array(of: 0...40)) { choices in
            let split = choices.first.map { $0 % (choices.count + 1) } ?? 0
            Self.expectFoldsAgree(choices.map { Self.episodeEvents[$0 % Self.episodeEvents.count] }, split, EpisodeDecider.effects, EpisodeDecider.initial, EpisodeDecider.evolve)
            Self.expectFoldsAgree(choices.map { Self.podcastEvents[$0 % Self.podcastEvents.count] }, split, PodcastDecider.effects, PodcastDecider.initial, PodcastDecider.evolve)
        }
    }

    /// Folds `events[..<split]` into a starting state, then the rest three ways: all, the kept ones in
    /// their order, the kept ones in log order.
    static func expectFoldsAgree<Field, State: Equatable>(
        _ events: [DomainEvent], _ split: Int, _ effects: [String: EventEffect<Field>], _ initial: State,
        _ evolve: (State, DomainEvent) -> State
    ) {
        let start = events[..<split].reduce(initial, evolve)
        let rest = Array(events[split...])
        let (kept, logOrder) = Self.kept(rest, effects)
        let all = rest.reduce(start, evolve)
        #expect(kept.reduce(start, evolve) == all)
        #expect(logOrder.reduce(start, evolve) == all)

        // Kept in two stretches, as readers on two threads do, then put together: the same events.
        var first = NeededEvents<Field, Int>(), second = NeededEvents<Field, Int>(), whole = NeededEvents<Field, Int>()
        for (index, event) in rest.enumerated() {
            whole.append(index, effect: effects[event.type])
            if index < rest.count / 2 { first.append(index, effect: effects[event.type]) } else { second.append(index, effect: effects[event.type]) }
        }
        first.append(contentsOf: second)
        #expect(first.elements.sorted() == whole.elements.sorted())
    }

    @Test("a later edit of a field overwrites an earlier one, but not across a deletion; a creation overwrites everything")
    func examples() {
        let e = Fixture.episode
        let created = Fixture.episodeCreated()
        let one = DomainEvent.episodeRetitled(EpisodeRetitled(episodeID: e, title: "One"))
        let two = DomainEvent.episodeRetitled(EpisodeRetitled(episodeID: e, title: "Two"))
        let imported = DomainEvent.transcriptImported(TranscriptImported(episodeID: e, transcript: Fixture.transcript, warnings: []))
        let cleared = DomainEvent.transcriptCleared(TranscriptCleared(episodeID: e))
        let deleted = DomainEvent.episodeDeleted(EpisodeDeleted(episodeID: e))
        func kept(_ events: [DomainEvent]) -> [DomainEvent] { Self.kept(events, EpisodeDecider.effects).kept }

        #expect(kept([created, one, two]) == [created, two])
        #expect(kept([created, one, imported, two, cleared]) == [created, two, cleared])
        #expect(kept([created, one, deleted, two]) == [created, one, deleted, two])
        #expect(kept([one, deleted, two, created, imported]) == [created, imported])
    }

    @Test("every event type of a podcast or an episode has an effect, but the deletions and a font's removal")
    func coverage() {
        let listed = Set(PodcastDecider.effects.keys).union(EpisodeDecider.effects.keys)
        // The library's fonts and the log's own events are no podcast's or episode's: no read model folds them.
        let entityTypes = DomainEvent.payloadTypes.filter { $0 != FontImported.self && $0 != FontRemoved.self && $0 != LossAccepted.self }
            .map { $0.type }
        // ThumbnailFontRemoved changes the thumbnail it finds rather than setting one, so nothing before
        // it may be skipped.
        #expect(Set(entityTypes).subtracting(listed) == [PodcastDeleted.type, EpisodeDeleted.type, ThumbnailFontRemoved.type])
    }
}
