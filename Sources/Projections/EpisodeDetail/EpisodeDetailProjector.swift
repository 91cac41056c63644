import CoreValues
import EventCodec
import Foundation
import GRDB
import PodcastDomain

/// One row per live episode: its light fields, its thumbnail settings, and references to its heavy
/// content. It never reads a blob.
public struct EpisodeDetailProjector: Projector {
    public let name = "episode-detail"
    public let schemaVersion = 4
    public let tables = ["episode_details"]

    public init() {}

    public func write(_ changes: EntityChanges, to db: Database) throws {
        try prepareWrite(changes).write(db)
    }

    /// Chunks of episodes whose JSON is made ahead of the one being inserted.
    static let chunksAhead = 2
    static let chunkLength = 4_096

    /// The settings and references as JSON are most of the work. The first chunks are made on other
    /// threads from the moment the transaction is prepared, while the other projectors write; then
    /// each is made a couple of chunks ahead of the inserts.
    public func prepareWrite(_ changes: EntityChanges) -> PreparedWrite {
        let ids = Array(changes.episodes.keys)
        let chunks = stride(from: 0, to: ids.count, by: Self.chunkLength).map { Array(ids[$0..<min($0 + Self.chunkLength, ids.count)]) }
        func json(_ chunk: [EpisodeID]) -> Ahead<[DetailJSON?]> {
            Ahead(worthAThread: chunk.count >= Parallelism.elementsPerWorker) {
                chunk.parallelMap { changes.episodes[$0]!.state.live.map(DetailJSON.init) }
            }
        }
        var made = chunks.prefix(Self.chunksAhead).map(json)
        return PreparedWrite { db in
            for (index, chunk) in chunks.enumerated() {
                let rows = made.removeFirst().value
                if index + Self.chunksAhead < chunks.count { made.append(json(chunks[index + Self.chunksAhead])) }
                try write(chunk, json: rows, of: changes, to: db)
            }
        }
    }

    private func write(_ ids: [EpisodeID], json: [DetailJSON?], of changes: EntityChanges, to db: Database) throws {
        for (id, json) in zip(ids, json) {
            let change = changes.episodes[id]!
            guard let episode = change.state.live, let json else {
                try db.cachedStatement(sql: WriteSQL.delete).execute(arguments: [id.description])
                continue
            }
            // Bound by position: a replay inserts a row per live episode (see `StatementBindings`).
            let row = StatementBindings(try db.cachedStatement(sql: WriteSQL.put))
            row.bind(1, id.description)
            row.bind(2, episode.podcastID.description)
            row.bind(3, episode.title)
            row.bind(4, episode.number)
            row.bind(5, episode.description)
            row.bind(6, episode.publishDate?.text)
            row.bind(7, episode.createdAt.text)
            row.bind(8, change.updatedAt.text)
            row.bind(9, json.thumbnailSettings)
            row.bind(10, json.thumbnailText)
            row.bind(11, json.transcript)
            row.bind(12, json.subtitles)
            row.bind(13, json.background)
            row.bind(14, json.overlay)
            row.bind(15, json.thumbnail)
            row.bind(16, json.transcriptWarnings)
            try row.run()
        }
    }
}

extension EpisodeDetailProjector {
    /// The SQL of its writes, prepared once per connection.
    enum WriteSQL {
        static let delete = "DELETE FROM episode_details WHERE id = ?"
        static let put = """
            INSERT OR REPLACE INTO episode_details (id, podcast_id, title, number, description, publish_date,
                created_at, updated_at, thumbnail_settings, thumbnail_text, transcript, subtitles, background,
                overlay, thumbnail, transcript_warnings)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
    }
}

/// An episode's JSON columns.
private struct DetailJSON: Sendable {
    let thumbnailSettings, thumbnailText: String
    let transcript, subtitles, background, overlay, thumbnail, transcriptWarnings: String?

    init(_ episode: Episode) {
        thumbnailSettings = JSONColumn.text(episode.thumbnailSettings)!
        thumbnailText = JSONColumn.text(episode.thumbnailText)!
        transcript = JSONColumn.text(episode.transcript)
        subtitles = JSONColumn.text(episode.subtitles)
        background = JSONColumn.text(episode.background)
        overlay = JSONColumn.text(episode.overlay)
        thumbnail = JSONColumn.text(episode.thumbnail)
        transcriptWarnings = episode.transcriptWarnings.isEmpty ? nil : JSONColumn.text(episode.transcriptWarnings)
    }
}

/// Values stored as JSON text in a column, written as the events' payloads write them.
enum JSONColumn {
    static func text<Value: Encodable>(_ value: Value?) -> String? {
        value.map { String(decoding: EventCoding.json($0), as: UTF8.self) }
    }

    static func value<Value: Decodable>(_ type: Value.Type, from text: String?) throws -> Value? {
        guard let text else { return nil }
        return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }
}
