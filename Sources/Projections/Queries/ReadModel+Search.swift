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
        return try database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT search_episodes.id, search_episodes.podcast_id, search_episodes.title, p.name AS podcast_name,
                        e.number AS number, snippet(search_episodes, -1, '[', ']', '…', 16) AS passage,
                        bm25(search_episodes, 0, 0, 10, 4, 1) AS score
                    FROM search_episodes LEFT JOIN search_podcasts p ON p.id = search_episodes.podcast_id
                        LEFT JOIN sidebar_episodes e ON e.id = search_episodes.id
                    WHERE search_episodes MATCH ?\(podcast == nil ? "" : " AND search_episodes.podcast_id = ?")
                    ORDER BY score, search_episodes.id
                    LIMIT ?
                    """,
                arguments: arguments
            ).map { row in
                SearchHit(
                    episodeID: try Decode.id(row["id"]), podcastID: try Decode.id(row["podcast_id"]), title: row["title"],
                    podcastName: row["podcast_name"], number: row["number"], snippet: Self.oneLine(row["passage"] ?? ""),
                    rank: row["score"])
            }
        }
    }

    /// Live episodes indexed without their transcript's text, and why.
    public func searchProblems() throws -> [SearchProblem] {
        try database.read { db in
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
