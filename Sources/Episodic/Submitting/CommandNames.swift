import PodcastDomain

// The names scripts give commands (`episodic submit`), which results echo back. One table per aggregate,
// so that a new command case cannot compile without a name.

extension PodcastCommand {
    public var name: String {
        switch self {
        case .create: "podcast.create"
        case .rename: "podcast.rename"
        case .describe: "podcast.describe"
        case .setArtwork: "podcast.artwork"
        case .clearArtwork: "podcast.artwork.clear"
        case .setDefaultOverlay: "podcast.overlay"
        case .clearDefaultOverlay: "podcast.overlay.clear"
        case .setDefaultBackground: "podcast.background"
        case .clearDefaultBackground: "podcast.background.clear"
        case .changeThumbnailDefaults: "podcast.defaults"
        case .changeDefaultThumbnailText(let text): text == .title ? "podcast.text.from-title" : "podcast.text"
        case .delete: "podcast.delete"
        }
    }
}

extension EpisodeCommand {
    public var name: String {
        switch self {
        case .create: "episode.create"
        case .retitle: "episode.retitle"
        case .renumber: "episode.renumber"
        case .describe: "episode.describe"
        case .setPublishDate: "episode.publish-date"
        case .delete: "episode.delete"
        case .importTranscript: "transcript.import"
        case .clearTranscript: "transcript.clear"
        case .recordSubtitles: "transcript.convert"
        case .setBackground: "thumbnail.background"
        case .setOverlay: "thumbnail.overlay"
        case .clearOverlay: "thumbnail.overlay.clear"
        case .changeThumbnailSettings: "thumbnail.settings"
        case .changeThumbnailText(let text): text == .title ? "thumbnail.text.from-title" : "thumbnail.text"
        case .recordThumbnail: "thumbnail.render"
        }
    }
}

extension FontCommand {
    public var name: String {
        switch self {
        case .import: "font.import"
        case .remove: "font.remove"
        }
    }
}
