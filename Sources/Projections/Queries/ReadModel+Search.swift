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
    /// FTS5's bm25 within the hit's group (see ``ReadModel/search(_:in:limit:)``), title weighted above
    /// description above transcript: lower (more negative) is better.
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
    ///
    /// Episodes whose title and description alone hold every word come first, ranked among themselves;
    /// then those that need their transcript, ranked by all three fields. The transcripts are searched
    /// only for the places the headings leave: a word in nearly every transcript ("the", or the first
    /// letter of a search being typed) would otherwise have bm25 walk the whole library's speech to rank
    /// by the word that tells episodes apart least.
    public func search(_ text: String, in podcast: PodcastID? = nil, limit: Int = 20) throws -> [SearchHit] {
        guard limit > 0, let match = Self.matchExpression(text) else { return [] }
        return try database.readKeepingStatements { db in
            var found = try SearchIndex.headings.hits(match, in: podcast, limit: limit, excluding: [], db)
            if found.count < limit {
                found += try SearchIndex.everything.hits(match, in: podcast, limit: limit - found.count, excluding: found.map(\.doc), db)
            }
            return found.map(\.hit)
        }
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

    /// A snippet on one line: transcripts put speakers and times on lines of their own. The lines of an
    /// SRT or WebVTT transcript that are its markup, not its words (a cue's number, its timing line, the
    /// WEBVTT header), are left out.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).filter { !isCueMarkup($0) }
            .flatMap { $0.split(whereSeparator: \.isWhitespace) }.joined(separator: " ")
    }

    /// Whether a line of a subtitle file is a cue's number (digits alone), a timing line (`-->`), or the
    /// WebVTT header; a snippet may begin inside one, hence `…` and a highlight's brackets are allowed.
    private static func isCueMarkup(_ line: Substring) -> Bool {
        let marks = line.filter { !($0.isWhitespace || "…[]".contains($0)) }
        return marks.contains("-->") || marks.hasPrefix("WEBVTT") || (!marks.isEmpty && marks.allSatisfy { $0.isASCII && $0.isNumber })
    }
}

/// One of the two full-text indexes of search.sql, and how a search ranks what it finds there.
private enum SearchIndex: String {
    /// `search_headings`: titles and descriptions, small.
    case headings = "search_headings"
    /// `search_episodes`: titles, descriptions and transcripts.
    case everything = "search_episodes"

    /// bm25's weight of each column: title above description above transcript (the ids are not words).
    var weights: String {
        switch self {
        case .headings: "10, 4"
        case .everything: "0, 0, 10, 4, 1"
        }
    }

    /// An episode a search found, with its document number.
    struct Found {
        var doc: Int64
        var hit: SearchHit
    }

    /// The best `limit` documents of this index that `match` matches, in `podcast` if given and never
    /// one of `excluding`, best first (ties by episode id), with their passages.
    func hits(_ match: String, in podcast: PodcastID?, limit: Int, excluding: [Int64], _ db: Database) throws -> [Found] {
        var arguments: StatementArguments = [match]
        var filters = ""
        if let podcast {
            filters += " AND d.podcast_id = ?"
            _ = arguments.append(contentsOf: [podcast.description])
        }
        if !excluding.isEmpty {
            filters += " AND d.doc NOT IN (SELECT value FROM json_each(?))"
            _ = arguments.append(contentsOf: [Self.list(excluding)])
        }
        _ = arguments.append(contentsOf: [limit])
        // Ranked from the index and search_documents alone; names and numbers are joined for the hits
        // kept, and the text their snippets are cut from (a transcript, read from its blob) read for them.
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT r.doc, r.id, r.podcast_id, r.title, p.name AS podcast_name, e.number AS number, r.score
                FROM (
                    SELECT d.doc, d.id, d.podcast_id, d.title, bm25(\(rawValue), \(weights)) AS score
                    FROM \(rawValue) JOIN search_documents d ON d.doc = \(rawValue).rowid
                    WHERE \(rawValue) MATCH ?\(filters)
                    ORDER BY score, d.id
                    LIMIT ?
                ) r
                    LEFT JOIN search_podcasts p ON p.id = r.podcast_id
                    LEFT JOIN sidebar_episodes e ON e.id = r.id
                ORDER BY r.score, r.id
                """,
            arguments: arguments)
        let passages = try passages(of: rows.map { $0["doc"] }, matching: match, db)
        return try rows.map { row in
            let doc: Int64 = row["doc"]
            let hit = SearchHit(
                episodeID: try Decode.id(row["id"]), podcastID: try Decode.id(row["podcast_id"]), title: row["title"],
                podcastName: row["podcast_name"], number: row["number"], snippet: ReadModel.oneLine(passages[doc] ?? ""),
                rank: row["score"])
            return Found(doc: doc, hit: hit)
        }
    }

    /// The passage of each of the documents `docs` that `match` matches, by document number, cut from
    /// its text in one pass over the matching documents. (A constraint on the rowid that FTS5 saw would
    /// make it evaluate the match again for each document, merging the doclists of every word a prefix
    /// names each time: the `+` keeps the constraint in SQLite.)
    private func passages(of docs: [Int64], matching match: String, _ db: Database) throws -> [Int64: String] {
        guard !docs.isEmpty else { return [:] }
        var passages: [Int64: String] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT rowid, snippet(\(rawValue), -1, '[', ']', '…', 16) FROM \(rawValue)
                WHERE \(rawValue) MATCH ? AND +rowid IN (SELECT value FROM json_each(?))
                """,
            arguments: [match, Self.list(docs)])
        while let row = try rows.next() { passages[row[0] as Int64] = row[1] as String? }
        return passages
    }

    /// Document numbers as a JSON array, for `json_each`.
    private static func list(_ docs: [Int64]) -> String {
        "[" + docs.map(String.init).joined(separator: ",") + "]"
    }
}
