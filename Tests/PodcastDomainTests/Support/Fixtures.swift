import CoreValues
import DomainTestSupport
import Foundation
import TestSupport

@testable import PodcastDomain

/// Fixed ids, times and content references, so that expected events can be written out in full.
enum Fixture {
    static let podcast = PodcastID(uuid(1))
    static let otherPodcast = PodcastID(uuid(2))
    static let episode = EpisodeID(uuid(101))
    static let otherEpisode = EpisodeID(uuid(102))
    static let monday = TestClock.start
    static let tuesday = Timestamp(rawValue: TestClock.start.rawValue + 86_400_000)!

    static func uuid(_ n: Int) -> UUID { TestContent.uuid(n) }
    static func blob(_ text: String) -> BlobRef { TestContent.blob(text) }
    static func image(_ name: String, _ width: Int = 1920, _ height: Int = 1080) -> ImageRef {
        TestContent.image(name, width, height)
    }

    static let transcriptText = "00:00:01\nHost\nHello and welcome.\n"
    static var transcript: BlobRef { blob(transcriptText) }

    // Histories.

    static func created(_ name: String = "Merge Conflict", id: PodcastID = podcast) -> DomainEvent {
        .podcastCreated(PodcastCreated(podcastID: id, name: name, description: nil, createdAt: monday, thumbnailDefaults: .defaults))
    }

    static func episodeCreated(
        _ title: String = "Pilot", number: Int = 1, id: EpisodeID = episode, settings: ThumbnailSettings = .defaults,
        overlay: ImageRef? = nil
    ) -> DomainEvent {
        .episodeCreated(EpisodeCreated(
            episodeID: id, podcastID: podcast, title: title, number: number, description: nil, publishDate: nil,
            createdAt: monday, thumbnailSettings: settings, overlay: overlay))
    }

    static var withTranscript: [DomainEvent] {
        [episodeCreated(), .transcriptImported(TranscriptImported(episodeID: episode, transcript: transcript, warnings: []))]
    }

    static var withBackground: [DomainEvent] {
        [episodeCreated(), .thumbnailBackgroundSet(ThumbnailBackgroundSet(episodeID: episode, background: image("bg")))]
    }

    /// What the episode of `history` would be rendered from now.
    static func render(of history: [DomainEvent], format: RenderedThumbnail.Format = .jpeg) -> RenderedThumbnail {
        let inputs = EpisodeDecider.fold(history).live!.thumbnailInputs!
        return RenderedThumbnail(image: image("thumb", 1024, 576), format: format, inputs: inputs)
    }
}
