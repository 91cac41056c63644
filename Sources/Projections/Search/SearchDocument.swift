import CoreValues
import GRDB

/// An episode's entry in the search index: its row of `search_documents`, which `search_headings`
/// follows through triggers, and which names the transcript whose words `search_transcripts` holds
/// (its text is read from the blob store, see ``TranscriptText``).
///
/// `search_transcripts` keeps no copy of the text it indexes (FTS5's external content), so it removes a
/// document's words only when given all of them again: ``unindex(transcript:in:)`` must be given the
/// text that ``index(transcript:in:)`` was.
struct SearchDocument: Equatable {
    /// The document number: the rowid in `search_headings` and `search_transcripts`.
    var doc: Int64
    var id: String
    var podcastID: String
    var title: String
    var description: String?
    /// The transcript whose text is indexed.
    var transcript: BlobRef?

    static let columns = "doc, id, podcast_id, title, description, transcript_sha256, transcript_bytes"

    init(doc: Int64, id: String, podcastID: String, title: String, description: String?, transcript: BlobRef?) {
        self.doc = doc
        self.id = id
        self.podcastID = podcastID
        self.title = title
        self.description = description
        self.transcript = transcript
    }

    /// From a row of ``columns``.
    init(_ row: Row) {
        doc = row["doc"]
        id = row["id"]
        podcastID = row["podcast_id"]
        title = row["title"]
        description = row["description"]
        transcript = (row["transcript_sha256"] as String?).flatMap { sha256 in BlobRef(sha256: sha256, byteCount: row["transcript_bytes"] ?? 0) }
    }

    /// Episode `id`'s document, if it has one.
    static func stored(_ id: String, in db: Database) throws -> SearchDocument? {
        try Row.fetchOne(db.cachedStatement(sql: WriteSQL.stored), arguments: [id]).map(Self.init)
    }

    /// Writes its row of `search_documents`.
    func save(in db: Database) throws {
        try db.cachedStatement(sql: WriteSQL.save).execute(arguments: [doc, id, podcastID, title, description, transcript?.sha256, transcript?.byteCount])
    }

    /// Adds its transcript's words to the index, `transcript` being its text; nil adds none.
    func index(transcript: String?, in db: Database) throws {
        guard let transcript else { return }
        try db.cachedStatement(sql: WriteSQL.index).execute(arguments: [doc, transcript])
    }

    /// Removes its transcript's words from the index, `transcript` being the text they were indexed from.
    func unindex(transcript: String?, in db: Database) throws {
        guard let transcript else { return }
        try db.cachedStatement(sql: WriteSQL.unindex).execute(arguments: [doc, transcript])
    }
}

extension SearchDocument {
    /// The SQL of its reads and writes, prepared once per connection.
    enum WriteSQL {
        static let stored = "SELECT \(columns) FROM search_documents WHERE id = ?"
        static let save = """
            INSERT INTO search_documents (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET podcast_id = excluded.podcast_id, title = excluded.title,
                description = excluded.description, transcript_sha256 = excluded.transcript_sha256,
                transcript_bytes = excluded.transcript_bytes
            """
        static let index = "INSERT INTO search_transcripts (rowid, transcript) VALUES (?, ?)"
        static let unindex = "INSERT INTO search_transcripts (search_transcripts, rowid, transcript) VALUES ('delete', ?, ?)"
    }
}
