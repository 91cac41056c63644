import CoreValues
import GRDB
import PodcastDomain

// What the write path looks up to check a command against the rules, and to resolve what a user
// names: each a single indexed read, whatever the size of the library.

extension ReadModel {
    /// The SQL of the lookups, prepared once per connection.
    enum LookupSQL {
        static let podcastNames = "SELECT id, name FROM sidebar_podcasts"
        static let episodeNumbered = "SELECT id FROM sidebar_episodes WHERE podcast_id = ? AND number = ?"
        static let highestNumbered = "SELECT number, id FROM sidebar_episodes WHERE podcast_id = ? ORDER BY number DESC LIMIT ?"
        static let episodesNamingFonts = """
            SELECT id, podcast_id, number, json_extract(thumbnail_settings, '$.fontName') AS font
            FROM episode_details WHERE font IS NOT NULL ORDER BY podcast_id, number
            """
        static let episodeIDs = "SELECT id FROM sidebar_episodes WHERE podcast_id = ? ORDER BY number"
        static let entitiesWithIDPrefix = """
            SELECT * FROM (SELECT id, 'podcast' AS kind, 0 AS deleted FROM sidebar_podcasts WHERE \(range))
            UNION ALL SELECT * FROM (SELECT id, 'episode', 0 FROM sidebar_episodes WHERE \(range))
            UNION ALL SELECT * FROM (SELECT id, kind, 1 FROM sidebar_deleted WHERE \(range))
            """
        private static let range = "id >= ?1 AND id < ?2 ORDER BY id LIMIT ?3"
        static let deletedEpisodes = """
            SELECT id, podcast_id, number, label FROM sidebar_deleted
            WHERE kind = 'episode' AND (?1 IS NULL OR podcast_id = ?1) ORDER BY podcast_id, number, id
            """
    }

    /// The deleted episodes of `podcast` (of every podcast when nil), by podcast and number: what
    /// each was numbered and titled when it was deleted.
    public func deletedEpisodes(in podcast: PodcastID?) throws -> [DeletedEpisode] {
        try database.readKeepingStatements { db in
            try Row.fetchAll(db.cachedStatement(sql: LookupSQL.deletedEpisodes), arguments: [podcast?.description]).map { row in
                DeletedEpisode(id: try Decode.id(row[0]), podcastID: try Decode.id(row[1]), number: row[2], title: row[3])
            }
        }
    }

    /// Every live podcast's name.
    public func podcastNames() throws -> [PodcastID: String] {
        try database.readKeepingStatements { db in
            var names: [PodcastID: String] = [:]
            let rows = try Row.fetchCursor(db.cachedStatement(sql: LookupSQL.podcastNames))
            while let row = try rows.next() { names[try Decode.id(row[0])] = row[1] }
            return names
        }
    }

    /// The live episode of `podcast` numbered `number`, if any.
    public func episode(number: Int, in podcast: PodcastID) throws -> EpisodeID? {
        try database.readKeepingStatements { db in
            try String.fetchOne(db.cachedStatement(sql: LookupSQL.episodeNumbered), arguments: [podcast.description, number])
                .map(Decode.id)
        }
    }

    /// The live episodes of `podcast` with the highest numbers, highest first.
    public func highestNumbered(in podcast: PodcastID, limit: Int) throws -> [(number: Int, id: EpisodeID)] {
        try database.readKeepingStatements { db in
            try Row.fetchAll(db.cachedStatement(sql: LookupSQL.highestNumbered), arguments: [podcast.description, limit])
                .map { (number: $0[0], id: try Decode.id($0[1])) }
        }
    }

    /// The live episodes whose thumbnail settings name a font, with that name: for a font's removal.
    /// A scan of the episodes that set one, which few do.
    public func episodesNamingFonts() throws -> [(episode: EpisodeID, podcast: PodcastID, number: Int, font: String)] {
        try database.readKeepingStatements { db in
            try Row.fetchAll(db.cachedStatement(sql: LookupSQL.episodesNamingFonts))
                .map { (try Decode.id($0[0]), try Decode.id($0[1]), $0[2], $0[3]) }
        }
    }

    /// Every live episode of `podcast`, in number order.
    public func episodeIDs(in podcast: PodcastID) throws -> [EpisodeID] {
        try database.readKeepingStatements { db in
            try String.fetchAll(db.cachedStatement(sql: LookupSQL.episodeIDs), arguments: [podcast.description]).map(Decode.id)
        }
    }

    /// Podcasts and episodes, live and deleted, whose id starts with `prefix` (lowercase hex and dashes):
    /// at most `limit` of each kind and state, in id order.
    public func entities(withIDPrefix prefix: String, limit: Int = 10) throws -> [IDPrefixMatch] {
        try database.readKeepingStatements { db in
            let statement = try db.cachedStatement(sql: LookupSQL.entitiesWithIDPrefix)
            return try Row.fetchAll(statement, arguments: [prefix, prefix + "\u{7F}", limit]).map { row in
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
