import GRDB
import PodcastDomain

extension ReadModel {
    /// Every podcast, newest first.
    public func podcasts() throws -> [PodcastSummary] {
        try database.readKeepingStatements { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sidebar_podcasts ORDER BY created_at DESC, id").map(PodcastSummary.init)
        }
    }

    /// One podcast's episodes: sorted, searched, filtered and paged in SQL. The default order reads one
    /// range of the table, which is stored in that order; the others go through their indexes.
    public func episodes(_ query: EpisodeQuery) throws -> [EpisodeSummary] {
        var conditions = ["podcast_id = ?"]
        var arguments: StatementArguments = [query.podcast.description]
        if let search = query.search.map(TitleFolding.fold), !search.isEmpty {
            conditions.append(#"title_folded LIKE ? ESCAPE '\'"#)
            _ = arguments.append(contentsOf: ["%" + Self.escapeLike(search) + "%"])
        }
        if let filters = EpisodeFilter.condition(query.filters) { conditions.append(filters) }
        let sql = "SELECT \(EpisodeSummary.columns) FROM sidebar_episodes WHERE \(conditions.joined(separator: " AND ")) "
            + "ORDER BY \(query.sort.orderBy) LIMIT ? OFFSET ?"
        _ = arguments.append(contentsOf: [query.limit ?? -1, query.offset])
        return try database.readKeepingStatements { db in
            // Room for every episode of the podcast (at most a page), so the array never grows by copying.
            let count = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT episode_count FROM sidebar_podcasts WHERE id = ?"), arguments: [query.podcast.description])
            var episodes: [EpisodeSummary] = []
            episodes.reserveCapacity(min(count ?? 0, query.limit ?? .max))
            let statement = try db.cachedStatement(sql: sql)
            let columns = StatementColumns(statement)
            // GRDB steps the statement (and resets it after); each row is read from SQLite directly.
            try Row.fetchCursor(statement, arguments: arguments).forEach { _ in
                episodes.append(try EpisodeSummary(columns, podcast: query.podcast))
            }
            return episodes
        }
    }

    /// One episode's detail; nil when there is no live episode with that id.
    public func episode(_ id: EpisodeID) throws -> EpisodeDetail? {
        try database.readKeepingStatements { db in
            try Row.fetchOne(db, sql: "SELECT * FROM episode_details WHERE id = ?", arguments: [id.description]).map(EpisodeDetail.init)
        }
    }

    private static func escapeLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
