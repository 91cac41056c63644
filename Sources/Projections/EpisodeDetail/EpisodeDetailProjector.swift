import CoreValues
import Foundation
import GRDB
import PodcastDomain

/// One row per live episode: its light fields, its thumbnail settings, and references to its heavy
/// content. It never reads a blob.
public struct EpisodeDetailProjector: Projector {
    public let name = "episode-detail"
    public let schemaVersion = 1
    public let tables = ["episode_details"]

    public init() {}

    public func write(_ changes: EntityChanges, to db: Database) throws {
        for (id, change) in changes.episodes {
            guard let episode = change.state.live else {
                try db.cachedStatement(sql: "DELETE FROM episode_details WHERE id = ?").execute(arguments: [id.description])
                continue
            }
            try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO episode_details (id, podcast_id, title, number, description, publish_date,
                    created_at, updated_at, thumbnail_settings, thumbnail_text, transcript, subtitles, background,
                    overlay, thumbnail)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    id.description, episode.podcastID.description, episode.title, episode.number, episode.description,
                    episode.publishDate?.text, episode.createdAt.text, change.updatedAt.text,
                    JSONColumn.text(episode.thumbnailSettings), episode.effectiveThumbnailText,
                    JSONColumn.text(episode.transcript), JSONColumn.text(episode.subtitles),
                    JSONColumn.text(episode.background), JSONColumn.text(episode.overlay),
                    JSONColumn.text(episode.thumbnail),
                ])
        }
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
