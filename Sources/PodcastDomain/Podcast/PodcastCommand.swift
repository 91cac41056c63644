import CoreValues

/// What a user can ask of a podcast. Ids and times come in with the command: the domain makes none.
public enum PodcastCommand: Hashable, Sendable {
    case create(id: PodcastID, name: String, description: String? = nil, at: Timestamp)
    case rename(String)
    /// nil or blank removes the description.
    case describe(String?)
    case setArtwork(ImageRef)
    case clearArtwork
    case setDefaultOverlay(ImageRef)
    case clearDefaultOverlay
    case setDefaultBackground(ImageRef)
    case clearDefaultBackground
    case changeThumbnailDefaults(ThumbnailSettings)
    /// Custom text that is blank returns to the default, `EP <number>`.
    case changeDefaultThumbnailText(ThumbnailText)
    /// Deletes the podcast and, in the same commit, each of its live episodes.
    case delete
}

/// What a podcast command needs to know beyond the podcast's own stream, read by the shell from a read
/// model that is current under the writer lock.
public struct PodcastFacts: Hashable, Sendable {
    /// The names of the other live podcasts: names are unique, ignoring case and surrounding spaces.
    public var otherPodcastNames: [PodcastID: String]
    /// The podcast's live episodes, which a delete deletes too.
    public var liveEpisodes: [EpisodeID]

    public init(otherPodcastNames: [PodcastID: String] = [:], liveEpisodes: [EpisodeID] = []) {
        self.otherPodcastNames = otherPodcastNames
        self.liveEpisodes = liveEpisodes
    }
}
