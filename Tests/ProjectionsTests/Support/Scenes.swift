import CoreValues
import DomainTestSupport
import PodcastDomain
import TestSupport

/// Named ids and commands for readable tests.
enum Scene {
    static let show = PodcastID(TestContent.uuid(1))
    static let other = PodcastID(TestContent.uuid(2))
    static func episode(_ n: Int) -> EpisodeID { EpisodeID(TestContent.uuid(100 + n)) }
    static let monday = TestClock.start

    static func createShow(_ id: PodcastID = show, _ name: String = "Merge Conflict") -> InMemoryLibrary.Command {
        .podcast(id, .create(id: id, name: name, at: monday))
    }

    static func createEpisode(_ n: Int, _ title: String, number: Int? = nil, publish: Int64? = nil, in podcast: PodcastID = show) -> InMemoryLibrary.Command {
        .episode(episode(n), podcast: podcast, .create(
            id: episode(n), title: title, number: number, publishDate: publish.map { Timestamp(rawValue: monday.rawValue + $0 * 86_400_000)! },
            at: monday))
    }

    static func on(_ n: Int, _ command: EpisodeCommand) -> InMemoryLibrary.Command {
        .episode(episode(n), podcast: show, command)
    }

    static func importTranscript(_ n: Int, _ text: String = "00:00:01\nHost\nHello.\n") -> InMemoryLibrary.Command {
        on(n, .importTranscript(bytes: Array(text.utf8), ref: TestContent.blob(text)))
    }
}
