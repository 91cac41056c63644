import PodcastDomain

/// The numbers of the live episodes a batch has loaded, by podcast: what the numbering facts correct
/// the read model with. Kept up to date as the batch changes its states, so that a fact costs the
/// podcast's loaded numbers, never a copy of every episode loaded (which made a script of n creates
/// cost n² episode copies).
struct LoadedNumbers {
    private var byPodcast: [PodcastID: [Int: Set<EpisodeID>]] = [:]
    /// Episodes loaded from the log, live or not, by the podcast they belong to.
    private var loadedByPodcast: [PodcastID: Int] = [:]

    /// Records an episode read from the log.
    mutating func load(_ id: EpisodeID, _ state: EpisodeState) {
        if let podcast = state.existing?.podcastID { loadedByPodcast[podcast, default: 0] += 1 }
        update(id, from: EpisodeDecider.initial, to: state)
    }

    /// How many episodes of `podcast` were read from the log: as many of the read model's answers as
    /// the batch may have made stale.
    func loadedCount(in podcast: PodcastID) -> Int { loadedByPodcast[podcast] ?? 0 }

    /// Records that episode `id` went from `old` to `new`.
    mutating func update(_ id: EpisodeID, from old: EpisodeState, to new: EpisodeState) {
        if let old = old.live { byPodcast[old.podcastID, default: [:]][old.number, default: []].remove(id) }
        if let new = new.live { byPodcast[new.podcastID, default: [:]][new.number, default: []].insert(id) }
    }

    /// The loaded live episodes of `podcast` numbered `number`.
    func holders(of number: Int, in podcast: PodcastID) -> [EpisodeID] {
        byPodcast[podcast]?[number].map { $0.sorted { $0.description < $1.description } } ?? []
    }

    /// The loaded live episode of `podcast` with the highest number, if any.
    func highest(in podcast: PodcastID) -> (number: Int, id: EpisodeID)? {
        guard let (number, ids) = byPodcast[podcast]?.filter({ !$0.value.isEmpty }).max(by: { $0.key < $1.key }) else { return nil }
        return (number, ids.min { $0.description < $1.description }!)
    }

    /// Every loaded live episode of `podcast`.
    func live(in podcast: PodcastID) -> [EpisodeID] {
        (byPodcast[podcast] ?? [:]).sorted { $0.key < $1.key }.flatMap { $0.value.sorted { $0.description < $1.description } }
    }
}
