import CoreValues
import PodcastDomain

/// The shell's part, in memory, for a library being generated: every stream's state, and the facts a
/// command needs (other podcasts' names, the numbers taken in a podcast), kept up to date as events
/// are folded in with the domain's own `evolve`. Every event of the generated log comes out of
/// `PodcastDecider.decide` or `EpisodeDecider.decide` through here.
///
/// The facts are kept incrementally, where the real shell reads them from its read model: rebuilding a
/// 10,000-entry number map per command would make generation quadratic.
struct GeneratingShell {
    /// Every stream's state, folded by the domain's one fold.
    private(set) var state = LibraryState()
    var podcasts: [PodcastID: PodcastState] { state.podcasts }
    var episodes: [EpisodeID: EpisodeState] { state.episodes }
    private(set) var podcastIDs: [PodcastID] = []
    /// Each podcast's live episodes by number: `EpisodeFacts.otherNumbers`.
    private(set) var numbers: [PodcastID: [Int: EpisodeID]] = [:]
    /// Live episodes, for picking one at random in constant time.
    private(set) var live: [EpisodeID] = []
    private var livePlace: [EpisodeID: Int] = [:]
    /// Episodes in the order they were created: the studio works mostly on the newest.
    private(set) var created: [EpisodeID] = []
    /// Commands refused by a decider: the generator should make none, so this is checked.
    private(set) var refusals = 0

    /// Runs a podcast command; returns its events (none when it changed nothing or was refused).
    mutating func run(_ command: PodcastCommand, podcast id: PodcastID) -> [DomainEvent] {
        let names = Dictionary(uniqueKeysWithValues: podcastIDs.compactMap { other in
            other == id ? nil : podcasts[other]?.live.map { (other, $0.name) }
        })
        let liveEpisodes = numbers[id].map { Array($0.values) } ?? []
        let events: [DomainEvent]
        do {
            events = try PodcastDecider.decide(
                command, podcasts[id] ?? .initial, PodcastFacts(otherPodcastNames: names, liveEpisodes: liveEpisodes))
        } catch {
            refusals += 1
            return []
        }
        events.forEach { apply($0) }
        return events
    }

    /// Runs an episode command; `podcast` is where a create goes.
    mutating func run(_ command: EpisodeCommand, episode id: EpisodeID, podcast: PodcastID) -> [DomainEvent] {
        let state = episodes[id] ?? .initial
        let podcastID = state.existing?.podcastID ?? podcast
        let events: [DomainEvent]
        do {
            // The facts hold the number map by reference (copy on write): built inside this scope, they
            // are gone before `apply` changes the map.
            let facts = EpisodeFacts(podcast: podcasts[podcastID] ?? .initial, otherNumbers: numbers[podcastID] ?? [:])
            events = try EpisodeDecider.decide(command, state, facts)
        } catch {
            refusals += 1
            return []
        }
        events.forEach { apply($0) }
        return events
    }

    func podcast(_ id: PodcastID) -> Podcast? { podcasts[id]?.live }
    func episode(_ id: EpisodeID) -> Episode? { episodes[id]?.live }

    /// Folds one event into its stream's state, and keeps the facts and the pick lists in step.
    private mutating func apply(_ event: DomainEvent) {
        switch event.aggregate {
        case .podcast(let id):
            if podcasts[id] == nil { podcastIDs.append(id) }
            state.evolve(event)
        case .episode(let id):
            let before = episodes[id]?.live
            state.evolve(event)
            let after = state.episode(id)
            if before == nil, let episode = after.live {
                if case .episodeCreated = event { created.append(id) }
                numbers[episode.podcastID, default: [:]][episode.number] = id
                livePlace[id] = live.count
                live.append(id)
            } else if let before, let episode = after.live, before.number != episode.number {
                numbers[episode.podcastID]?[before.number] = nil
                numbers[episode.podcastID]?[episode.number] = id
            } else if let before, after.live == nil {
                numbers[before.podcastID]?[before.number] = nil
                let place = livePlace.removeValue(forKey: id)!
                let last = live.removeLast()
                if last != id {
                    live[place] = last
                    livePlace[last] = place
                }
            }
        case .fonts, .log:
            state.evolve(event)
        }
    }
}

extension GeneratingShell {
    /// How many live episodes the podcast has.
    func numbersCount(_ podcast: PodcastID) -> Int { numbers[podcast]?.count ?? 0 }

    func isTaken(_ number: Int, in podcast: PodcastID) -> Bool { numbers[podcast]?[number] != nil }
}
