import DomainTestSupport
import PodcastDomain
import PropertyBased
import Testing

@testable import EventCodec

@Suite("States kept for long streams")
struct KeptStatesTests {
    @Test("every state of random command runs reads back as it was written")
    func roundTrip() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max)).array(of: 1...40)) { choices in
            var library = InMemoryLibrary()
            for command in CommandPool.setup + choices.map(CommandPool.command(from:)) { _ = library.run(command) }
            for (id, podcast) in library.podcasts {
                var state = LibraryState()
                let bytes = KeptStates.encode(.podcast(id), of: library.state)
                #expect(bytes.map { KeptStates.load($0, as: .podcast(id), into: &state) } == true)
                #expect(state.podcast(id) == podcast)
            }
            for (id, episode) in library.episodes {
                var state = LibraryState()
                let bytes = KeptStates.encode(.episode(id), of: library.state)
                #expect(bytes.map { KeptStates.load($0, as: .episode(id), into: &state) } == true)
                #expect(state.episode(id) == episode)
            }
        }
    }

    @Test("bytes that are not the state of that entity load nothing")
    func refusals() throws {
        var library = InMemoryLibrary()
        for command in CommandPool.setup { _ = library.run(command) }
        let podcast = try #require(library.podcasts.keys.sorted { $0.description < $1.description }.first)
        let episode = try #require(library.episodes.keys.sorted { $0.description < $1.description }.first)
        let other = try #require(library.podcasts.keys.first { $0 != podcast })
        let bytes = try #require(KeptStates.encode(.podcast(podcast), of: library.state))
        var state = LibraryState()
        #expect(!KeptStates.load(bytes, as: .podcast(other), into: &state))
        #expect(!KeptStates.load(bytes, as: .episode(episode), into: &state))
        #expect(!KeptStates.load(Array(bytes.dropLast()), as: .podcast(podcast), into: &state))
        #expect(!KeptStates.load(Array(#"{"life":"initial"}"#.utf8), as: .podcast(podcast), into: &state))
        #expect(!KeptStates.load(bytes, as: .fonts, into: &state))
        #expect(state == LibraryState())
        #expect(KeptStates.encode(.fonts, of: library.state) == nil)
    }
}
