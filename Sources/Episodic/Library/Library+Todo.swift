import Projections

/// Work an episode still needs: each made by one command.
public enum EpisodeTask: String, Sendable, Equatable, CaseIterable {
    /// It has no transcript.
    case importTranscript
    /// Its transcript has no subtitles, or they were made from an earlier transcript.
    case convertTranscript
    /// It has no thumbnail, and no background to draw one on.
    case setBackground
    /// It has no thumbnail, or the thumbnail's inputs changed since it was drawn.
    case renderThumbnail
}

/// An episode that needs work, or publishes soon, with what it needs.
public struct EpisodeTodo: Sendable, Equatable {
    public var episode: EpisodeSummary
    public var podcastName: String
    /// What it needs, in the order the work goes: transcript, subtitles, thumbnail. Each says whether
    /// the thing is missing or outdated.
    public var needs: [Need]
    /// Whether its publish date falls within the window asked for, from now.
    public var publishesSoon: Bool

    /// One piece of work: its task, and whether what it makes is there but outdated.
    public struct Need: Sendable, Equatable {
        public var task: EpisodeTask
        public var outdated: Bool
    }
}

extension Library {
    /// Every live episode that needs work (a transcript, subtitles, a thumbnail, missing or outdated) or
    /// publishes within `window` seconds from `now` (today's date included), of `podcast` or of every podcast: those publishing
    /// soon first, by date, then by podcast name and number. From the read models' flags alone.
    public func todo(in podcast: PodcastID? = nil, publishingWithin window: Double, now: Timestamp) throws -> [EpisodeTodo] {
        let podcasts = try podcasts().filter { podcast == nil || $0.id == podcast }
        let soon = now.rawValue + Int64(window * 1_000)
        var todos: [EpisodeTodo] = []
        for summary in podcasts.sorted(by: { ($0.name.lowercased(), $0.id.description) < ($1.name.lowercased(), $1.id.description) }) {
            for episode in try episodes(EpisodeQuery(podcast: summary.id, sort: .number)) {
                // Only an episode without a thumbnail is asked whether it has a background.
                let hasBackground = try episode.hasThumbnail || episodeDetail(episode.id)?.background != nil
                let needs = Self.needs(of: episode, hasBackground: hasBackground)
                // A publish date is a calendar day (its midnight, UTC): today's is not yet past.
                let publishesSoon = episode.publishDate.map { $0.rawValue > now.rawValue - 86_400_000 && $0.rawValue <= soon } ?? false
                guard !needs.isEmpty || publishesSoon else { continue }
                todos.append(EpisodeTodo(episode: episode, podcastName: summary.name, needs: needs, publishesSoon: publishesSoon))
            }
        }
        // Stable: within each group, podcasts by name and episodes by number, as read.
        let dueSoon = todos.filter(\.publishesSoon).enumerated()
            .sorted { ($0.element.episode.publishDate!.rawValue, $0.offset) < ($1.element.episode.publishDate!.rawValue, $1.offset) }
            .map(\.element)
        return dueSoon + todos.filter { !$0.publishesSoon }
    }

    /// What an episode's flags say it needs. Subtitles are made from a transcript, and a thumbnail is
    /// drawn on a background: without one, setting it is the work, and the rest comes after.
    static func needs(of episode: EpisodeSummary, hasBackground: Bool) -> [EpisodeTodo.Need] {
        var needs: [EpisodeTodo.Need] = []
        if !episode.hasTranscript {
            needs.append(.init(task: .importTranscript, outdated: false))
        } else if !episode.hasSRT || episode.srtOutdated {
            needs.append(.init(task: .convertTranscript, outdated: episode.hasSRT))
        }
        if !episode.hasThumbnail && !hasBackground {
            needs.append(.init(task: .setBackground, outdated: false))
        } else if !episode.hasThumbnail || episode.thumbnailOutdated {
            needs.append(.init(task: .renderThumbnail, outdated: episode.hasThumbnail))
        }
        return needs
    }
}
