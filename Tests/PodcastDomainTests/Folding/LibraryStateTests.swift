import CoreValues
import DomainTestSupport
import PropertyBased
import Testing

@testable import PodcastDomain

/// ``LibraryState`` routes each event to its aggregate's decider: folding a whole library through it
/// must equal folding each stream, on its own, through its own decider.
@Suite("One fold for the library")
struct LibraryStateTests {
    @Test("the library folded event by event equals each stream folded by its own decider")
    func routesEveryEventToItsStream() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max)).array(of: 1...60)) { choices in
            var library = InMemoryLibrary()
            var events: [DomainEvent] = []
            for command in CommandPool.setup + choices.map(CommandPool.command(from:)) {
                if case .success(let accepted) = library.run(command) { events += accepted }
            }
            let state = LibraryState(folding: events)
            for id in CommandPool.podcasts {
                #expect(state.podcast(id) == PodcastDecider.fold(events.filter { $0.stream == id.streamName }))
            }
            for id in CommandPool.episodes {
                #expect(state.episode(id) == EpisodeDecider.fold(events.filter { $0.stream == id.streamName }))
            }
        }
    }

    @Test("a stream's name gives back its aggregate; a name no aggregate has gives none")
    func aggregateByStreamName() {
        for key in [AggregateKey.podcast(CommandPool.podcasts[0]), .episode(CommandPool.episodes[0]), .fonts] {
            #expect(AggregateKey(streamName: key.streamName) == key)
        }
        for name in ["s", "podcast-", "episode-not-a-uuid", "podcast-" + CommandPool.episodes[0].description + "x"] {
            #expect(AggregateKey(streamName: name) == nil, "\(name)")
        }
    }

    @Test("font events go to the fonts, and loading a stream gives the same state as evolving it")
    func fontsAndLoading() throws {
        let font = BlobRef(sha256: String(repeating: "ab", count: 32), byteCount: 10)!
        let imported = try FontDecider.decide(.import(name: "Inter", font: font), FontDecider.initial)
        let podcast = PodcastID(TestContent.uuid(1))
        let created = try PodcastDecider.decide(.create(id: podcast, name: "Show", at: Timestamp(rawValue: 0)!), .initial)

        var evolved = LibraryState()
        (imported + created).forEach { evolved.evolve($0) }
        #expect(evolved.fonts.font(named: "inter")?.font == font)
        #expect(evolved.podcast(podcast).live?.name == "Show")
        #expect(imported.map(\.aggregate) == [.fonts] && created.map(\.aggregate) == [.podcast(podcast)])

        var loaded = LibraryState()
        loaded.load(.fonts, from: imported)
        loaded.load(.podcast(podcast), from: created)
        #expect(loaded == evolved)

        // A stream loaded empty is known, at its initial state.
        let unknown = EpisodeID(TestContent.uuid(9))
        loaded.load(.episode(unknown), from: [])
        #expect(loaded.episodes[unknown] == .initial && evolved.episodes[unknown] == nil)
    }
}
