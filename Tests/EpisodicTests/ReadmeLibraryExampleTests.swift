import Episodic
import Foundation
import TestSupport
import Testing

/// The README's "In an app" example, as written there, so that the README stays true.
@Suite("README, in an app")
struct ReadmeLibraryExampleTests {
    @Test("the example runs and prints what the README shows")
    func example() throws {
        let folder = TemporaryFolder("readme-library-example")
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        let library = try Library.create(at: folder("Shows"))
        let show = PodcastID(UUID())
        let report = try library.submit([
            Submission(.podcast(.id(show), .create(id: show, name: "Release Notes", at: .now))),
            Submission(.createEpisode(in: .id(show), .create(id: EpisodeID(UUID()), title: "Merge conflicts", at: .now))),
        ], actor: "ana")
        print(try report.results.map { try $0.get().name })

        for episode in try library.episodes(EpisodeQuery(podcast: show)) {
            print(episode.number, episode.title, episode.hasTranscript)
        }
        _ = try library.undo(.last(actor: "ana"), actor: "ana")
        print(try library.episodes(EpisodeQuery(podcast: show)).count)

        #expect(printed == [#"["podcast.create", "episode.create"]"#, "1 Merge conflicts false", "0"])
    }
}
