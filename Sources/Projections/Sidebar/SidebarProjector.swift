import CoreValues
import Foundation
import GRDB
import PodcastDomain

/// The sidebar: podcasts with their counts, and episode summaries with their derived flags.
///
/// Live entities have summary rows; deleted ones a row in `sidebar_deleted`, for an id prefix. Flags come
/// from the domain's `Episode` (the same code the rules use). A podcast's counts are what its episode
/// rows add up to: a write that changes a few of its episodes adds the difference each makes (reading a
/// row by id), and one that changes the podcast itself, or many of its episodes (a replay), recounts
/// its rows (reading them all: 170 pages for 2,000 episodes).
public struct SidebarProjector: Projector {
    public let name = "sidebar"
    public let schemaVersion = 4
    public let tables = ["sidebar_podcasts", "sidebar_episodes", "sidebar_deleted"]

    public init() {}

    /// How many of a podcast's episodes one write changes at most before their podcast is recounted
    /// rather than given each one's difference.
    static let differencesAtMost = 16

    public func write(_ changes: EntityChanges, to db: Database) throws {
        var recount = Set(changes.podcasts.keys)
        let touched = Dictionary(grouping: changes.episodes.values.compactMap { $0.state.existing?.podcastID }) { $0 }
        recount.formUnion(touched.filter { $0.value.count > Self.differencesAtMost }.keys)
        var differences = CountDifferences()
        for (id, change) in changes.episodes {
            // Episodes never change podcast: one whose podcast is recounted needs no difference.
            guard let podcast = change.state.existing?.podcastID, !recount.contains(podcast) else { continue }
            if let row = try Row.fetchOne(db.cachedStatement(sql: WriteSQL.episodeFlags), arguments: [id.description]) {
                differences.add(podcast, -1, hasTranscript: row[0], hasThumbnail: row[1])
            }
            if let episode = change.state.live {
                differences.add(podcast, 1, hasTranscript: episode.hasTranscript, hasThumbnail: episode.hasThumbnail)
            }
        }
        for (id, change) in changes.podcasts {
            if let podcast = change.state.live {
                try db.cachedStatement(sql: WriteSQL.putPodcast).execute(arguments: [
                    id.description, podcast.name, podcast.description, podcast.createdAt.rawValue,
                    podcast.artwork?.blob.sha256, podcast.artwork?.blob.byteCount,
                ])
                try Self.forgetDeleted(id.description, in: db)
            } else {
                try db.cachedStatement(sql: WriteSQL.deletePodcast).execute(arguments: [id.description])
                if let podcast = change.state.existing {
                    try Self.keepDeleted(id.description, kind: "podcast", podcast: nil, number: nil, label: podcast.name, in: db)
                }
            }
        }
        for (id, change) in changes.episodes where change.state.live == nil {
            try db.cachedStatement(sql: WriteSQL.deleteEpisode).execute(arguments: [id.description])
            if let episode = change.state.existing {
                try Self.keepDeleted(
                    id.description, kind: "episode", podcast: episode.podcastID.description, number: episode.number,
                    label: episode.title, in: db)
            }
        }
        for id in Self.liveInTableOrder(changes.episodes) {
            let change = changes.episodes[id]!
            let episode = change.state.live!
            // Bound by position: a replay inserts a row per live episode (see `StatementBindings`).
            let row = StatementBindings(try db.cachedStatement(sql: WriteSQL.putEpisode))
            row.bind(1, id.description)
            row.bind(2, episode.podcastID.description)
            row.bind(3, episode.title)
            row.bind(4, TitleFolding.fold(episode.title))
            row.bind(5, episode.number)
            row.bind(6, episode.publishDate?.rawValue)
            row.bind(7, episode.createdAt.rawValue)
            row.bind(8, change.updatedAt.rawValue)
            row.bind(9, episode.hasTranscript)
            row.bind(10, episode.hasSubtitles)
            row.bind(11, episode.subtitlesOutdated)
            row.bind(12, episode.hasThumbnail)
            row.bind(13, episode.thumbnailOutdated)
            try row.run()
            // A restored episode; on an empty table (nearly always) a lookup in an empty index.
            try Self.forgetDeleted(id.description, in: db)
        }
        for podcast in recount {
            try db.cachedStatement(sql: WriteSQL.recount).execute(arguments: [podcast.description])
        }
        for (podcast, difference) in differences.byPodcast where difference != .zero {
            try db.cachedStatement(sql: WriteSQL.addDifference).execute(arguments: [
                difference.episodes, difference.missingTranscripts, difference.missingThumbnails, podcast.description,
            ])
        }
    }
}

extension SidebarProjector {
    /// The SQL of its writes, prepared once per connection.
    enum WriteSQL {
        /// An episode row's flags, to count its podcast's difference.
        static let episodeFlags = "SELECT has_transcript, has_thumbnail FROM sidebar_episodes WHERE id = ?"
        /// A podcast's row, its counts kept.
        static let putPodcast = """
            INSERT INTO sidebar_podcasts (id, name, description, created_at, artwork_sha256, artwork_bytes)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description,
                artwork_sha256 = excluded.artwork_sha256, artwork_bytes = excluded.artwork_bytes
            """
        static let deletePodcast = "DELETE FROM sidebar_podcasts WHERE id = ?"
        static let deleteEpisode = "DELETE FROM sidebar_episodes WHERE id = ?"
        /// An episode's row, bound by position (see `StatementBindings`).
        static let putEpisode = """
            INSERT OR REPLACE INTO sidebar_episodes (id, podcast_id, title, title_folded, number, publish_date,
                created_at, updated_at, has_transcript, has_srt, srt_outdated, has_thumbnail, thumbnail_outdated)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        /// A podcast's counts, from its episode rows.
        static let recount = """
            UPDATE sidebar_podcasts SET
                episode_count = (SELECT COUNT(*) FROM sidebar_episodes WHERE podcast_id = ?1),
                missing_transcript_count = (SELECT COUNT(*) FROM sidebar_episodes WHERE podcast_id = ?1 AND has_transcript = 0),
                missing_thumbnail_count = (SELECT COUNT(*) FROM sidebar_episodes WHERE podcast_id = ?1 AND has_thumbnail = 0)
            WHERE id = ?1
            """
        /// A podcast's counts, moved by what a write changed in its episode rows.
        static let addDifference = """
            UPDATE sidebar_podcasts SET episode_count = episode_count + ?, missing_transcript_count = missing_transcript_count + ?,
                missing_thumbnail_count = missing_thumbnail_count + ?
            WHERE id = ?
            """
        static let keepDeleted = "INSERT OR REPLACE INTO sidebar_deleted (id, kind, podcast_id, number, label) VALUES (?, ?, ?, ?, ?)"
        static let forgetDeleted = "DELETE FROM sidebar_deleted WHERE id = ?"
    }
}

/// What a write's episode rows change in their podcasts' counts.
struct CountDifferences {
    struct Counts: Equatable {
        static let zero = Counts()
        var episodes = 0
        var missingTranscripts = 0
        var missingThumbnails = 0
    }

    private(set) var byPodcast: [PodcastID: Counts] = [:]

    /// Counts a row of `podcast` in (`sign` 1) or out (-1).
    mutating func add(_ podcast: PodcastID, _ sign: Int, hasTranscript: Bool, hasThumbnail: Bool) {
        byPodcast[podcast, default: .zero].episodes += sign
        if !hasTranscript { byPodcast[podcast, default: .zero].missingTranscripts += sign }
        if !hasThumbnail { byPodcast[podcast, default: .zero].missingThumbnails += sign }
    }
}

extension SidebarProjector {
    private static func keepDeleted(_ id: String, kind: String, podcast: String?, number: Int?, label: String, in db: Database) throws {
        try db.cachedStatement(sql: WriteSQL.keepDeleted).execute(arguments: [id, kind, podcast, number, label])
    }

    private static func forgetDeleted(_ id: String, in db: Database) throws {
        try db.cachedStatement(sql: WriteSQL.forgetDeleted).execute(arguments: [id])
    }

    /// The live episodes of `changes`, in the order of `sidebar_episodes` (podcast, then number), so that a
    /// replay appends rows rather than splitting pages all over the clustered table. The keys are sorted,
    /// not the states, which are large.
    static func liveInTableOrder(_ changes: [EpisodeID: EntityChanges.Change<EpisodeState>]) -> [EpisodeID] {
        changes.compactMap { id, change in change.state.live.map { (podcast: $0.podcastID, number: $0.number, id: id) } }
            .sorted { ($0.podcast, $0.number) < ($1.podcast, $1.number) }
            .map { $0.id }
    }
}

/// Titles for search and sorting: without case or accents, so "Café" is found as "cafe".
public enum TitleFolding {
    public static func fold(_ text: String) -> String {
        // ASCII has no accents and folds to lowercase: most titles need no call to Foundation.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
