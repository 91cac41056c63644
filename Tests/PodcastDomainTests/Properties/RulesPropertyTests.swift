import CoreValues
import DomainTestSupport
import PropertyBased
import Testing

@testable import PodcastDomain

/// Random sequences of commands, from a small pool of ids, names and numbers so that they collide
/// often: whatever is accepted or refused, the rules hold in every state reached.
@Suite("Rules under random commands")
struct RulesPropertyTests {
    @Test("names and numbers stay unique, settings stay in range, episodes never outlive their podcast, events round-trip")
    func rulesHold() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int(Int32.max)).array(of: 1...60)) { choices in
            var library = InMemoryLibrary()
            for command in CommandPool.setup { _ = library.run(command) }
            for choice in choices {
                let command = CommandPool.command(from: choice)
                if case .success(let events) = library.run(command) {
                    events.forEach { expectRoundTrip($0) }
                }
                checkInvariants(library, after: command)
            }
        }
    }

    private func checkInvariants(_ library: InMemoryLibrary, after command: InMemoryLibrary.Command) {
        let names = library.livePodcasts.map { $0.name.lowercased() }
        #expect(Set(names).count == names.count, "podcast names unique after \(command)")
        for podcast in library.livePodcasts {
            #expect(!podcast.name.isEmpty && podcast.name == podcast.name.trimmingCharacters(in: .whitespaces))
            #expect((try? Rules.settings(podcast.thumbnailDefaults)) == podcast.thumbnailDefaults)
        }
        let livePodcasts = Set(library.livePodcasts.map(\.id))
        var numbers: [PodcastID: Set<Int>] = [:]
        for episode in library.liveEpisodes {
            #expect(livePodcasts.contains(episode.podcastID), "episode outlived its podcast after \(command)")
            #expect(numbers[episode.podcastID, default: []].insert(episode.number).inserted, "number \(episode.number) twice after \(command)")
            #expect(Rules.episodeNumbers.contains(episode.number))
            #expect((try? Rules.settings(episode.thumbnailSettings)) == episode.thumbnailSettings)
            #expect(!episode.title.isEmpty)
            if episode.thumbnail != nil { #expect(episode.background != nil) }
        }
    }
}
