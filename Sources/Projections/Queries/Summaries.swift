import CoreValues
import Foundation
import GRDB
import PodcastDomain

/// A podcast as the sidebar lists it.
public struct PodcastSummary: Equatable, Sendable {
    public var id: PodcastID
    public var name: String
    public var description: String?
    public var createdAt: Timestamp
    public var episodeCount: Int
    public var missingTranscriptCount: Int
    public var missingThumbnailCount: Int
    public var artwork: BlobRef?

    init(_ row: Row) throws {
        id = try Decode.id(row["id"])
        name = row["name"]
        description = row["description"]
        createdAt = try Decode.time(milliseconds: row["created_at"])
        episodeCount = row["episode_count"]
        missingTranscriptCount = row["missing_transcript_count"]
        missingThumbnailCount = row["missing_thumbnail_count"]
        artwork = (row["artwork_sha256"] as String?).flatMap { BlobRef(sha256: $0, byteCount: row["artwork_bytes"]) }
    }
}

/// An episode as a podcast's list shows it, with its derived flags.
public struct EpisodeSummary: Equatable, Sendable {
    public var id: EpisodeID
    public var podcastID: PodcastID
    public var title: String
    public var number: Int
    public var publishDate: Timestamp?
    public var createdAt: Timestamp
    public var updatedAt: Timestamp
    public var hasTranscript: Bool
    public var hasSRT: Bool
    public var srtOutdated: Bool
    public var hasThumbnail: Bool
    public var thumbnailOutdated: Bool

    /// The columns ``init(_:podcast:)`` reads, by position.
    static let columns = "id, title, number, publish_date, created_at, updated_at, has_transcript, has_srt, "
        + "srt_outdated, has_thumbnail, thumbnail_outdated"

    /// A row of ``columns`` from the list of `podcast`.
    init(_ row: StatementColumns, podcast: PodcastID) throws {
        id = try row.id(0)
        podcastID = podcast
        title = row.text(1)
        number = row.int(2)
        publishDate = try row.optionalTime(3)
        createdAt = try row.time(4)
        updatedAt = try row.time(5)
        hasTranscript = row.bool(6)
        hasSRT = row.bool(7)
        srtOutdated = row.bool(8)
        hasThumbnail = row.bool(9)
        thumbnailOutdated = row.bool(10)
    }
}

/// Everything light about one episode, and the references of its heavy content.
public struct EpisodeDetail: Equatable, Sendable {
    public var id: EpisodeID
    public var podcastID: PodcastID
    public var title: String
    public var number: Int
    public var description: String?
    public var publishDate: Timestamp?
    public var createdAt: Timestamp
    public var updatedAt: Timestamp
    public var thumbnailSettings: ThumbnailSettings
    /// What the thumbnail says; ``thumbnailWords`` the words it draws now.
    public var thumbnailText: ThumbnailText
    public var transcript: BlobRef?
    /// The transcript's defects read past at import; empty for a clean one.
    public var transcriptWarnings: [TranscriptWarning]
    public var subtitles: SubtitlesRef?
    public var background: ImageRef?
    public var overlay: ImageRef?
    public var thumbnail: RenderedThumbnail?

    init(_ row: Row) throws {
        id = try Decode.id(row["id"])
        podcastID = try Decode.id(row["podcast_id"])
        title = row["title"]
        number = row["number"]
        description = row["description"]
        publishDate = try (row["publish_date"] as String?).map(Decode.time)
        createdAt = try Decode.time(row["created_at"])
        updatedAt = try Decode.time(row["updated_at"])
        thumbnailSettings = try JSONColumn.value(ThumbnailSettings.self, from: row["thumbnail_settings"]) ?? .defaults
        thumbnailText = try JSONColumn.value(ThumbnailText.self, from: row["thumbnail_text"]) ?? .episodeNumber
        transcript = try JSONColumn.value(BlobRef.self, from: row["transcript"])
        transcriptWarnings = try JSONColumn.value([TranscriptWarning].self, from: row["transcript_warnings"]) ?? []
        subtitles = try JSONColumn.value(SubtitlesRef.self, from: row["subtitles"])
        background = try JSONColumn.value(ImageRef.self, from: row["background"])
        overlay = try JSONColumn.value(ImageRef.self, from: row["overlay"])
        thumbnail = try JSONColumn.value(RenderedThumbnail.self, from: row["thumbnail"])
    }
}

extension EpisodeDetail {
    /// The words the thumbnail draws now.
    public var thumbnailWords: String { thumbnailText.words(title: title, number: number) }
}

/// Columns back into values; a value that does not parse means the read model was edited by hand.
enum Decode {
    struct Failure: Error, Equatable, CustomStringConvertible {
        let value: String
        var description: String { "the read model holds \"\(value)\" where an id or a time should be; rebuild it" }
    }

    static func id<Kind>(_ text: String) throws -> Identifier<Kind> {
        guard let id = Identifier<Kind>(text) else { throw Failure(value: text) }
        return id
    }

    static func time(_ text: String) throws -> Timestamp {
        guard let time = Timestamp(text: text) else { throw Failure(value: text) }
        return time
    }

    /// A time the sidebar stores as milliseconds since 1970 (`Timestamp.rawValue`).
    static func time(milliseconds: Int64) throws -> Timestamp {
        guard let time = Timestamp(rawValue: milliseconds) else { throw Failure(value: String(milliseconds)) }
        return time
    }
}

/// An episode as it was when it was deleted: enough to name it, and to find the command that deleted it.
public struct DeletedEpisode: Sendable, Equatable {
    public var id: EpisodeID
    public var podcastID: PodcastID
    public var number: Int
    public var title: String
}
