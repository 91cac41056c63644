import CoreValues
import EventLog
import Foundation
import GRDB
import PodcastDomain

/// Full-text search over live episodes: titles, descriptions and transcript text, in SQLite FTS5.
///
/// The one projector that reads blobs, because a transcript's text is only in the blob store, and stays
/// there: the index keeps the words, never a copy of the text (see ``SearchDocument``). It reads a
/// transcript to index it when it is not the one already indexed (`search_documents` keeps its sha256),
/// and the one it replaces, since the old words are removed from the text they came from; a retitle or
/// a new description reads none. Snippets are cut from the text as read when a search shows them.
///
/// A transcript that cannot be read (missing or damaged blob) does not stop the projection: throwing
/// would fail every catch-up, and with it every command of the library, for want of one blob. The
/// episode is indexed without transcript text and the failure is kept in `search_problems`, for
/// `verify` and the CLI to report; the next change to the episode, or a rebuild, tries again. One that
/// was indexed and can no longer be read leaves words that cannot be removed: the index is then made
/// again from `search_documents`, as a replay would make it.
public struct SearchProjector: Projector {
    public let name = "search"
    public let schemaVersion = 5
    /// `search_entries` holds each document's fields and the number of words indexed for each, by id.
    public let tables = ["search_entries", "search_podcasts", "search_problems"]

    /// Where the transcripts are: the library's blob store, or, for a shared library, its blob store
    /// with the server behind it.
    public let blobs: BlobReader

    public init(blobs: BlobReader) {
        self.blobs = blobs
    }

    public func prepare(_ db: Database) throws {
        db.add(function: TranscriptText.function(blobs))
    }

    /// A replay from the start writes `search_documents` alone, and the index is made from it once, in
    /// ``finishReplay(_:)``: an episode changed in many transactions of the replay would otherwise have
    /// its transcript read and its words removed and added again at each.
    public func beginReplay(_ db: Database) throws {
        try db.execute(sql: "CREATE TEMP TABLE \(Self.replaying) (started INTEGER)")
    }

    public func finishReplay(_ db: Database) throws {
        guard try Self.isReplaying(db) else { return }
        var index = IndexWrite(db: db, blobs: blobs, deferred: false)
        try index.reindex()
        try db.execute(sql: "DROP TABLE temp.\(Self.replaying)")
    }

    /// The table that exists, on a replay's connection alone, until the replay is finished: its
    /// connection's own (TEMP), so that no file holds it and no other connection sees it.
    static let replaying = "search_replaying"

    static func isReplaying(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM temp.sqlite_master WHERE name = '\(replaying)')"))!
    }

    public func write(_ changes: EntityChanges, to db: Database) throws {
        for (id, change) in changes.podcasts {
            if let podcast = change.state.live {
                try db.cachedStatement(sql: WriteSQL.putPodcast).execute(arguments: [id.description, podcast.name])
            } else {
                try db.cachedStatement(sql: WriteSQL.deletePodcast).execute(arguments: [id.description])
            }
        }
        var index = IndexWrite(db: db, blobs: blobs, deferred: try Self.isReplaying(db))
        // In id order, so that two replays of the same log number documents alike.
        for (id, change) in changes.episodes.sorted(by: { $0.key < $1.key }) {
            if let episode = change.state.live {
                try index.put(episode)
            } else {
                try index.remove(id)
            }
        }
        if index.isStale { try index.reindex() }
    }

    /// The number of a document indexed for the first time: one more than the highest (see search.sql).
    static func nextDocumentNumber(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: WriteSQL.nextDocumentNumber))!
    }
}

extension SearchProjector {
    /// The SQL of its writes, prepared once per connection.
    enum WriteSQL {
        static let putPodcast = """
            INSERT INTO search_podcasts (id, name) VALUES (?, ?)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name
            """
        static let deletePodcast = "DELETE FROM search_podcasts WHERE id = ?"
        static let nextDocumentNumber = "SELECT coalesce(max(doc), 0) + 1 FROM search_documents"
        static let deleteDocument = "DELETE FROM search_documents WHERE id = ?"
        static let keepProblem = "INSERT OR REPLACE INTO search_problems (id, transcript_sha256, message) VALUES (?, ?, ?)"
        static let forgetProblem = "DELETE FROM search_problems WHERE id = ?"
    }
}

/// One transaction's changes to the index.
private struct IndexWrite {
    let db: Database
    let blobs: BlobReader
    /// Set once a document's indexed transcript could not be read again, so that its words could not be
    /// removed: from then on only `search_documents` is written, and the index is made again from it at
    /// the end of the transaction.
    private(set) var isStale = false
    /// Set in a replay from the start: only `search_documents` is written, and the index is made once
    /// the replay is finished (``SearchProjector/finishReplay(_:)``).
    let deferred: Bool

    init(db: Database, blobs: BlobReader, deferred: Bool) {
        self.db = db
        self.blobs = blobs
        self.deferred = deferred
    }

    /// Writes a live episode's entry; its transcript is read only if it is not the one indexed.
    mutating func put(_ episode: Episode) throws {
        let id = episode.id.description
        let stored = try SearchDocument.stored(id, in: db)
        if deferred {
            // Whether its transcript can be read is found when the index is made.
            try document(of: episode, replacing: stored, transcript: episode.transcript).save(in: db)
            try db.cachedStatement(sql: SearchProjector.WriteSQL.forgetProblem).execute(arguments: [id])
            return
        }
        if let stored, stored.transcript?.sha256 == episode.transcript?.sha256 {
            // The indexed transcript is the current one (or there is none): only the headings can differ,
            // and the triggers of search_documents index them. A problem left from a transcript since
            // cleared is resolved.
            try db.cachedStatement(sql: SearchProjector.WriteSQL.forgetProblem).execute(arguments: [id])
            guard stored.title != episode.title || stored.description != episode.description else { return }
            var document = stored
            document.title = episode.title
            document.description = episode.description
            try document.save(in: db)
            return
        }

        var text: String?
        var problem: String?
        if let ref = episode.transcript {
            do {
                text = try TranscriptText.read(ref, from: blobs)
            } catch {
                problem = Self.problem(error)
            }
        }
        let document = try document(of: episode, replacing: stored, transcript: text == nil ? nil : episode.transcript)
        if let stored { try unindex(stored) }
        try document.save(in: db)
        if !isStale { try document.index(transcript: text, in: db) }

        if let problem, let ref = episode.transcript {
            try db.cachedStatement(sql: SearchProjector.WriteSQL.keepProblem).execute(arguments: [id, ref.sha256, problem])
        } else {
            try db.cachedStatement(sql: SearchProjector.WriteSQL.forgetProblem).execute(arguments: [id])
        }
    }

    /// `episode`'s entry, under the number of the one it replaces (or a new number), with `transcript`
    /// as the transcript whose text it indexes.
    private func document(of episode: Episode, replacing stored: SearchDocument?, transcript: BlobRef?) throws -> SearchDocument {
        SearchDocument(
            doc: try stored?.doc ?? SearchProjector.nextDocumentNumber(in: db), id: episode.id.description,
            podcastID: episode.podcastID.description, title: episode.title, description: episode.description,
            transcript: transcript)
    }

    /// Removes a deleted episode's entry, found through its document number.
    mutating func remove(_ id: EpisodeID) throws {
        let key = id.description
        if let stored = try SearchDocument.stored(key, in: db) {
            if !deferred { try unindex(stored) }
            try db.cachedStatement(sql: SearchProjector.WriteSQL.deleteDocument).execute(arguments: [key])
        }
        try db.cachedStatement(sql: SearchProjector.WriteSQL.forgetProblem).execute(arguments: [key])
    }

    /// Removes the words of `document`'s transcript from the index, reading its text again; when it can
    /// no longer be read, the index is stale from then on.
    private mutating func unindex(_ document: SearchDocument) throws {
        guard !isStale, let ref = document.transcript else { return }
        guard let text = try? TranscriptText.read(ref, from: blobs) else {
            isStale = true
            return
        }
        try document.unindex(transcript: text, in: db)
    }

    /// Makes the transcripts' index again from `search_documents`, reading every indexed transcript: one
    /// that can no longer be read is left out of its document, and reported, as a replay would leave it.
    /// (The headings' index follows `search_documents` through its triggers, and is never stale.)
    mutating func reindex() throws {
        try db.execute(sql: "INSERT INTO search_transcripts (search_transcripts) VALUES ('delete-all')")
        var unreadable: [(document: SearchDocument, problem: String)] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT \(SearchDocument.columns) FROM search_documents WHERE transcript_sha256 IS NOT NULL")
        while let row = try rows.next() {
            var document = SearchDocument(row)
            var text: String?
            if let ref = document.transcript {
                do {
                    text = try TranscriptText.read(ref, from: blobs)
                } catch {
                    unreadable.append((document, Self.problem(error)))
                    document.transcript = nil
                }
            }
            try document.index(transcript: text, in: db)
        }
        for (document, problem) in unreadable {
            try db.execute(
                sql: "UPDATE search_documents SET transcript_sha256 = NULL, transcript_bytes = NULL WHERE id = ?", arguments: [document.id])
            try db.cachedStatement(sql: SearchProjector.WriteSQL.keepProblem)
                .execute(arguments: [document.id, document.transcript?.sha256, problem])
        }
        isStale = false
    }

    static func problem(_ error: any Error) -> String {
        "its transcript is not searchable: \(error) Then rebuild the search projection."
    }
}
