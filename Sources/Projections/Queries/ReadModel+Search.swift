import CoreValues
import GRDB
import PodcastDomain

/// An episode that matches a search, with the passage that matched.
public struct SearchHit: Equatable, Sendable {
    public var episodeID: EpisodeID
    public var podcastID: PodcastID
    public var title: String
    /// Nil only if the read model holds no live podcast for the episode (it should).
    public var podcastName: String?
    /// The episode's number, from the sidebar; nil only while that projector is behind the search's.
    public var number: Int?
    /// The best matching passage of the title, description or transcript, on one line: matched words
    /// between `[` and `]`, cut ends marked `…`.
    public var snippet: String
    /// FTS5's bm25, title weighted above description above transcript: lower (more negative) is better.
    public var rank: Double
}

/// A live episode whose transcript could not be indexed, because its blob is missing or damaged.
public struct SearchProblem: Equatable, Sendable {
    public var episodeID: EpisodeID
    /// The sha256 of the transcript that could not be read.
    public var transcript: String
    public var message: String
}

extension ReadModel {
    /// Episodes whose title, description or transcript hold every word of `text`, best first. Case and
    /// accents do not count; the last word is a prefix unless `text` ends in a space, so that results
    /// follow typing. Any text is safe: it is searched for as words, never read as FTS5 syntax, and
    /// text without words finds nothing. With `podcast`, only that podcast's episodes.
    public func search(_ text: String, in podcast: PodcastID? = nil, limit: Int = 20) throws -> [SearchHit] {
        guard limit > 0, let match = Self.matchExpression(text) else { return [] }
        var arguments: StatementArguments = [match]
        if let podcast { _ = arguments.append(contentsOf: [podcast.description]) }
        _ = arguments.append(contentsOf: [limit])
        return try database.readKeepingStatements { db in
            // Ranked from the index and search_documents alone; the text snippets are cut from (a
            // transcript, read from its blob) is read only for the hits shown.
            let hits = try Row.fetchAll(
                db,
                sql: """
                    SELECT d.doc, d.id, d.podcast_id, d.title, p.name AS podcast_name, e.number AS number,
                        bm25(search_episodes, 0, 0, 10, 4, 1) AS score
                    FROM search_episodes JOIN search_documents d ON d.doc = search_episodes.rowid
                        LEFT JOIN search_podcasts p ON p.id = d.podcast_id
                        LEFT JOIN sidebar_episodes e ON e.id = d.id
                    WHERE search_episodes MATCH ?\(podcast == nil ? "" : " AND d.podcast_id = ?")
                    ORDER BY score, d.id
                    LIMIT ?
                    """,
                arguments: arguments)
            let passages = try Self.passages(of: hits.map { $0["doc"] }, matching: match, in: db)
            return try hits.map { row in
                SearchHit(
                    episodeID: try Decode.id(row["id"]), podcastID: try Decode.id(row["podcast_id"]), title: row["title"],
                    podcastName: row["podcast_name"], number: row["number"], snippet: Self.oneLine(passages[row["doc"] as Int64] ?? ""),
                    rank: row["score"])
            }
        }
    }

    /// The passage of each of the documents `docs` that `match` matches, by document number, cut from
    /// its text in one pass over the matching documents. (A constraint on the rowid that FTS5 saw would
    /// make it evaluate the match again for each document, merging the doclists of every word a prefix
    /// names each time: the `+` keeps the constraint in SQLite.)
    static func passages(of docs: [Int64], matching match: String, in db: Database) throws -> [Int64: String] {
        guard !docs.isEmpty else { return [:] }
        var passages: [Int64: String] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT rowid, snippet(search_episodes, -1, '[', ']', '…', 16) FROM search_episodes
                WHERE search_episodes MATCH ? AND +rowid IN (SELECT value FROM json_each(?))
                """,
            arguments: [match, "[" + docs.map(String.init).joined(separator: ",") + "]"])
        while let row = try rows.next() { passages[row[0] as Int64] = row[1] as String? }
        return passages
    }

    /// Live episodes indexed without their transcript's text, and why.
    public func searchProblems() throws -> [SearchProblem] {
        try database.readKeepingStatements { db in
            try Row.fetchAll(db, sql: "SELECT id, transcript_sha256, message FROM search_problems ORDER BY id").map { row in
                SearchProblem(episodeID: try Decode.id(row["id"]), transcript: row["transcript_sha256"], message: row["message"])
            }
        }
    }

    /// The words of `text` as an FTS5 query that cannot be a syntax error: each word a quoted string
    /// (`"` doubled), so `AND`, `NEAR(`, `-`, `*` and the like are plain text, and all must match.
    /// Words with no letter or digit are dropped, since FTS5 would find nothing for them.
    static func matchExpression(_ text: String) -> String? {
        // Control characters (NUL above all) are spaces: they are no part of any word.
        let cleaned = String(text.map { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : $0 })
        let words = cleaned.split(whereSeparator: \.isWhitespace).filter { $0.contains { $0.isLetter || $0.isNumber } }
        guard !words.isEmpty else { return nil }
        var terms = words.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }
        if cleaned.last?.isWhitespace == false { terms[terms.count - 1] += "*" }
        return terms.joined(separator: " ")
    }

    /// A snippet on one line: transcripts put speakers and times on lines of their own.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
