import CoreValues
import GRDB
import PodcastDomain

// What the write path looks up to check a command against the rules, and to resolve what a user
// names: each a single indexed read, whatever the size of the library.

extension ReadModel {
    /// Every live podcast's name.
    public func podcastNames() throws -> [PodcastID: String] {
        try database.readKeepingStatements { db in
            var names: [PodcastID: String] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, name FROM sidebar_podcasts")
            while let row = try rows.next() { names[try Decode.id(row[0])] = row[1] }
            return names
        }
    }

    /// The live episode of `podcast` numbered `number`, if any.
    public func episode(number: Int, in podcast: PodcastID) throws -> EpisodeID? {
        try database.readKeepingStatements { db in
            try String.fetchOne(
                db, sql: "SELECT id FROM sidebar_episodes WHERE podcast_id = ? AND number = ?",
                arguments: [podcast.description, number]
            ).map(Decode.id)
        }
    }

    /// The live episodes of `podcast` with the highest numbers, highest first.
    public func highestNumbered(in podcast: PodcastID, limit: Int) throws -> [(number: Int, id: EpisodeID)] {
        try database.readKeepingStatements { db in
            try Row.fetchAll(
                db, sql: "SELECT number, id FROM sidebar_episodes WHERE podcast_id = ? ORDER BY number DESC LIMIT ?",
                arguments: [podcast.description, limit]
            ).map { (number: $0[0], id: try Decode.id($0[1])) }
        }
    }

    /// The live episodes whose thumbnail settings name a font, with that name: for a font's removal.
    /// A scan of the episodes that set one, which few do.
    public func episodesNamingFonts() throws -> [(episode: EpisodeID, podcast: PodcastID, number: Int, font: String)] {
        try database.readKeepingStatements { db in
            try Row.fetchAll(db, sql: """
                SELECT id, podcast_id, number, json_extract(thumbnail_settings, '$.fontName') AS font
                FROM episode_details WHERE font IS NOT NULL ORDER BY podcast_id, number
                """
            ).map { (try Decode.id($0[0]), try Decode.id($0[1]), $0[2], $0[3]) }
        }
    }

    /// Every live episode of `podcast`, in number order.
    public func episodeIDs(in podcast: PodcastID) throws -> [EpisodeID] {
        try database.readKeepingStatements { db in
            try String.fetchAll(
                db, sql: "SELECT id FROM sidebar_episodes WHERE podcast_id = ? ORDER BY number", arguments: [podcast.description]
            ).map(Decode.id)
        }
    }

    /// Podcasts and episodes, live and deleted, whose id starts with `prefix` (lowercase hex and dashes):
    /// at most `limit` of each kind and state, in id order.
    public func entities(withIDPrefix prefix: String, limit: Int = 10) throws -> [IDPrefixMatch] {
        try database.readKeepingStatements { db in
            let range = "id >= ?1 AND id < ?2 ORDER BY id LIMIT ?3"
            return try Row.fetchAll(
                db, sql: """
                    SELECT * FROM (SELECT id, 'podcast' AS kind, 0 AS deleted FROM sidebar_podcasts WHERE \(range))
                    UNION ALL SELECT * FROM (SELECT id, 'episode', 0 FROM sidebar_episodes WHERE \(range))
                    UNION ALL SELECT * FROM (SELECT id, kind, 1 FROM sidebar_deleted WHERE \(range))
                    """,
                arguments: [prefix, prefix + "\u{7F}", limit]
            ).map { row in
                let id: String = row[0]
                let deleted: Bool = row[2]
                return row[1] as String == "podcast"
                    ? IDPrefixMatch(entity: .podcast(try Decode.id(id)), deleted: deleted)
                    : IDPrefixMatch(entity: .episode(try Decode.id(id)), deleted: deleted)
            }
        }
    }
}

/// A podcast or an episode whose id starts with a prefix a user typed.
public struct IDPrefixMatch: Hashable, Sendable {
    public enum Entity: Hashable, Sendable {
        case podcast(PodcastID)
        case episode(EpisodeID)
    }

    public var entity: Entity
    public var deleted: Bool
}
