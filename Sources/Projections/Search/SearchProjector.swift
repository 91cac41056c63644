import CoreValues
import EventLog
import Foundation
import GRDB
import PodcastDomain

/// Full-text search over live episodes: titles, descriptions and transcript text, in SQLite FTS5.
///
/// The one projector that reads blobs, because a transcript's text is only in the blob store. It reads
/// one only when the episode's transcript is not the one already indexed (`search_documents` keeps its
/// sha256), so a retitle or a thumbnail change never reads a transcript again.
///
/// A transcript that cannot be read (missing or damaged blob) does not stop the projection: throwing
/// would fail every catch-up, and with it every command of the library, for want of one blob. The
/// episode is indexed without transcript text and the failure is kept in `search_problems`, for
/// `verify` and the CLI to report; the next change to the episode, or a rebuild, tries again.
public struct SearchProjector: Projector {
    public let name = "search"
    public let schemaVersion = 2
    public let tables = ["search_episodes", "search_documents", "search_podcasts", "search_problems"]

    /// Where the transcripts are: the library's blob store, or, for a shared library, its blob store
    /// with the server behind it.
    public let blobs: BlobReader

    public init(blobs: BlobReader) {
        self.blobs = blobs
    }

    public func write(_ changes: EntityChanges, to db: Database) throws {
        for (id, change) in changes.podcasts {
            if let podcast = change.state.live {
                try db.cachedStatement(sql: """
                    INSERT INTO search_podcasts (id, name) VALUES (?, ?)
                    ON CONFLICT (id) DO UPDATE SET name = excluded.name
                    """).execute(arguments: [id.description, podcast.name])
            } else {
                try db.cachedStatement(sql: "DELETE FROM search_podcasts WHERE id = ?").execute(arguments: [id.description])
            }
        }
        // In id order, so that even a clash of document numbers resolves the same way in every run.
        for (id, change) in changes.episodes.sorted(by: { $0.key < $1.key }) {
            if let episode = change.state.live {
                try index(episode, in: db)
            } else {
                try remove(id, from: db)
            }
        }
    }

    /// Writes a live episode's entry; its transcript is read only if it is not the one indexed.
    private func index(_ episode: Episode, in db: Database) throws {
        let id = episode.id.description
        let stored = try Row.fetchOne(
            db.cachedStatement(sql: """
                SELECT d.doc, d.transcript_sha256, p.id IS NOT NULL AS has_problem, e.title, e.description
                FROM search_documents d
                LEFT JOIN search_problems p ON p.id = d.id
                LEFT JOIN search_episodes e ON e.rowid = d.doc
                WHERE d.id = ?
                """),
            arguments: [id])

        if let stored, stored["transcript_sha256"] as String? == episode.transcript?.sha256 {
            // The indexed transcript is the current one (or there is none): only light fields can differ.
            // A problem left from a transcript since cleared is resolved.
            if stored["has_problem"] as Bool {
                try db.cachedStatement(sql: "DELETE FROM search_problems WHERE id = ?").execute(arguments: [id])
            }
            guard stored["title"] as String? != episode.title || stored["description"] as String? != episode.description
            else { return }
            try db.cachedStatement(sql: "UPDATE search_episodes SET title = ?, description = ? WHERE rowid = ?")
                .execute(arguments: [episode.title, episode.description, stored["doc"] as Int64])
            return
        }

        var text: String?
        var problem: String?
        if let ref = episode.transcript {
            do {
                // SQLite takes text up to its first NUL: a transcript holding one (imports read past them)
                // would be indexed only that far.
                text = String(decoding: try blobs.read(ref), as: UTF8.self).replacingOccurrences(of: "\u{0}", with: " ")
            } catch {
                problem = "its transcript is not searchable: \(error) Then rebuild the search projection."
            }
        }
        let indexed = text == nil ? nil : episode.transcript?.sha256

        if let stored {
            let doc: Int64 = stored["doc"]
            try db.cachedStatement(sql: "UPDATE search_episodes SET title = ?, description = ?, transcript = ? WHERE rowid = ?")
                .execute(arguments: [episode.title, episode.description, text, doc])
            try db.cachedStatement(sql: "UPDATE search_documents SET transcript_sha256 = ? WHERE id = ?")
                .execute(arguments: [indexed, id])
        } else {
            let doc = try Self.freeDocumentNumber(for: episode.id, in: db)
            try db.cachedStatement(sql: """
                INSERT INTO search_episodes (rowid, id, podcast_id, title, description, transcript)
                VALUES (?, ?, ?, ?, ?, ?)
                """).execute(arguments: [doc, id, episode.podcastID.description, episode.title, episode.description, text])
            try db.cachedStatement(sql: "INSERT INTO search_documents (id, doc, transcript_sha256) VALUES (?, ?, ?)")
                .execute(arguments: [id, doc, indexed])
        }

        if let problem, let ref = episode.transcript {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO search_problems (id, transcript_sha256, message) VALUES (?, ?, ?)")
                .execute(arguments: [id, ref.sha256, problem])
        } else {
            try db.cachedStatement(sql: "DELETE FROM search_problems WHERE id = ?").execute(arguments: [id])
        }
    }

    /// Removes a deleted episode's entry, found through its document number.
    private func remove(_ id: EpisodeID, from db: Database) throws {
        let key = id.description
        if let doc = try Int64.fetchOne(db.cachedStatement(sql: "SELECT doc FROM search_documents WHERE id = ?"), arguments: [key]) {
            try db.cachedStatement(sql: "DELETE FROM search_episodes WHERE rowid = ?").execute(arguments: [doc])
            try db.cachedStatement(sql: "DELETE FROM search_documents WHERE id = ?").execute(arguments: [key])
        }
        try db.cachedStatement(sql: "DELETE FROM search_problems WHERE id = ?").execute(arguments: [key])
    }

    /// The episode's document number: FNV-1a of its UUID, so that it does not depend on the order or
    /// the batches episodes are met in (a replay equals a step-by-step build), or the next free one.
    static func freeDocumentNumber(for id: EpisodeID, in db: Database) throws -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in withUnsafeBytes(of: id.rawValue.uuid, Array.init) {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        var number = Int64(bitPattern: hash & UInt64(Int64.max))
        let taken = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM search_documents WHERE doc = ?)")
        while try Bool.fetchOne(taken, arguments: [number]) == true {
            number = number == Int64.max ? 0 : number + 1
        }
        return number
    }
}
