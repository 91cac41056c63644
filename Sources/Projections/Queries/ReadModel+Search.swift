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
    /// FTS5's bm25 within the hit's group (see ``ReadModel/search(_:in:limit:)``): of the headings, title
    /// weighted above description, for the first two groups; of the transcript for the third. Lower
    /// (more negative) is better.
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
    /// Three groups, each ranked on its own by bm25: episodes whose title and description alone hold
    /// every word; then those whose headings hold some of the words and the transcript the rest, ranked
    /// by their headings; then those whose transcript alone holds them. The transcripts are searched
    /// only for the places the headings leave: a word in nearly every transcript ("the", or the first
    /// letter of a search being typed) would otherwise have bm25 walk the whole library's speech to rank
    /// by the word that tells episodes apart least.
    public func search(_ text: String, in podcast: PodcastID? = nil, limit: Int = 20) throws -> [SearchHit] {
        guard limit > 0, let terms = Self.matchTerms(text) else { return [] }
        return try database.readKeepingStatements { db in
            var found: [SearchGroup.Found] = []
            for group in SearchGroup.allCases where found.count < limit {
                found += try group.hits(terms, in: podcast, limit: limit - found.count, excluding: found.map(\.doc), db)
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
        matchTerms(text)?.joined(separator: " ")
    }

    /// The words of `text` as FTS5 phrases, one each (see ``matchExpression(_:)``), the last a prefix
    /// unless `text` ends in a space; nil when it has no word.
    static func matchTerms(_ text: String) -> [String]? {
        // Control characters (NUL above all) are spaces: they are no part of any word.
        let cleaned = String(text.map { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : $0 })
        let words = cleaned.split(whereSeparator: \.isWhitespace).filter { $0.contains { $0.isLetter || $0.isNumber } }
        guard !words.isEmpty else { return nil }
        var terms = words.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }
        if cleaned.last?.isWhitespace == false { terms[terms.count - 1] += "*" }
        return terms
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

/// The groups a search's results come in, best first (see ``ReadModel/search(_:in:limit:)``), and how
/// each finds and ranks its episodes in the two full-text indexes of search.sql: `search_headings`
/// (titles and descriptions, small) and `search_transcripts`.
private enum SearchGroup: CaseIterable {
    /// The headings hold every word.
    case headings
    /// The headings hold some of the words, and the transcript the others.
    case headingsAndTranscript
    /// The transcript holds every word, the headings none.
    case transcript

    /// An episode a search found, with its document number.
    struct Found {
        var doc: Int64
        var hit: SearchHit
    }

    /// The best `limit` episodes of this group that hold `terms` (FTS5 phrases), in `podcast` if given
    /// and never one of `excluding`, best first (ties by episode id), with their passages.
    func hits(_ terms: [String], in podcast: PodcastID?, limit: Int, excluding: [Int64], _ db: Database) throws -> [Found] {
        let every = terms.joined(separator: " "), some = terms.joined(separator: " OR ")
        // One word is in the headings or it is not: the second group needs two.
        if self == .headingsAndTranscript, terms.count < 2 { return [] }
        let (index, weights) = self == .transcript ? ("search_transcripts", "1") : ("search_headings", "10, 4")
        var filters = ""
        var arguments: StatementArguments = [self == .headingsAndTranscript ? some : every]
        switch self {
        case .headings:
            break
        case .headingsAndTranscript:
            // Each word in the headings or in the transcript.
            for term in terms {
                filters += """
                     AND d.doc IN (SELECT rowid FROM search_headings WHERE search_headings MATCH ?
                        UNION SELECT rowid FROM search_transcripts WHERE search_transcripts MATCH ?)
                    """
                _ = arguments.append(contentsOf: [term, term])
            }
        case .transcript:
            filters += " AND d.doc NOT IN (SELECT rowid FROM search_headings WHERE search_headings MATCH ?)"
            _ = arguments.append(contentsOf: [some])
        }
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
                    SELECT d.doc, d.id, d.podcast_id, d.title, bm25(\(index), \(weights)) AS score
                    FROM \(index) JOIN search_documents d ON d.doc = \(index).rowid
                    WHERE \(index) MATCH ?\(filters)
                    ORDER BY score, d.id
                    LIMIT ?
                ) r
                    LEFT JOIN search_podcasts p ON p.id = r.podcast_id
                    LEFT JOIN sidebar_episodes e ON e.id = r.id
                ORDER BY r.score, r.id
                """,
            arguments: arguments)
        // The passage is the headings' for the first group; for the others, the transcript's, which holds
        // a word the headings do not.
        let passages = try self == .headings
            ? Self.passages(of: rows.map { $0["doc"] }, in: "search_headings", matching: every, db)
            : Self.passages(of: rows.map { $0["doc"] }, in: "search_transcripts", matching: some, db)
        return try rows.map { row in
            let doc: Int64 = row["doc"]
            let hit = SearchHit(
                episodeID: try Decode.id(row["id"]), podcastID: try Decode.id(row["podcast_id"]), title: row["title"],
                podcastName: row["podcast_name"], number: row["number"], snippet: ReadModel.oneLine(passages[doc] ?? ""),
                rank: row["score"])
            return Found(doc: doc, hit: hit)
        }
    }

    /// The passage of each of the documents `docs` of `index` that `match` matches, by document number,
    /// cut from its text in one pass over the matching documents. (A constraint on the rowid that FTS5
    /// saw would make it evaluate the match again for each document, merging the doclists of every word
    /// a prefix names each time: the `+` keeps the constraint in SQLite.)
    private static func passages(of docs: [Int64], in index: String, matching match: String, _ db: Database) throws -> [Int64: String] {
        guard !docs.isEmpty else { return [:] }
        var passages: [Int64: String] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT rowid, snippet(\(index), -1, '[', ']', '…', 16) FROM \(index)
                WHERE \(index) MATCH ? AND +rowid IN (SELECT value FROM json_each(?))
                """,
            arguments: [match, list(docs)])
        while let row = try rows.next() { passages[row[0] as Int64] = row[1] as String? }
        return passages
    }

    /// Document numbers as a JSON array, for `json_each`.
    private static func list(_ docs: [Int64]) -> String {
        "[" + docs.map(String.init).joined(separator: ",") + "]"
    }
}
