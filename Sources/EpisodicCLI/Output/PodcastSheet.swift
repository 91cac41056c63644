import Episodic

/// One podcast as labelled lines for people: `podcast show`, and `show` of a podcast.
enum PodcastSheet {
    /// The podcast, its number of live episodes, and the thumbnail settings new episodes start from.
    static func lines(_ podcast: Podcast, episodes: Int, times: TimeText) -> [TerminalText] {
        EpisodeSheet.labelled([
            ("id", podcast.id.description), ("name", podcast.name), ("description", podcast.description ?? "–"),
            ("created", times.instant(podcast.createdAt)), ("episodes", "\(episodes)"),
            ("artwork", podcast.artwork.map(EpisodeSheet.image) ?? "–"),
            ("default overlay", podcast.defaultOverlay.map(EpisodeSheet.image) ?? "–"),
            ("default background", podcast.defaultBackground.map(EpisodeSheet.image) ?? (podcast.artwork == nil ? "–" : "the artwork")),
        ] + EpisodeSheet.settingsRows(podcast.thumbnailDefaults).map { ("default " + $0.0, $0.1) }
          + [("default text", text(podcast.defaultThumbnailText))])
    }

    /// What new episodes' thumbnails say, as `podcast defaults` sets it.
    private static func text(_ text: ThumbnailText) -> String {
        switch text {
        case .episodeNumber: "EP <number>"
        case .title: "the episode's title"
        case .custom(let words): words
        }
    }
}
