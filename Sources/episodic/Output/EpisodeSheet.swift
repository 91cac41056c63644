import CoreValues
import PodcastDomain
import Projections

/// One episode as labelled lines for people.
enum EpisodeSheet {
    static func lines(_ episode: EpisodeDetail) -> [String] {
        let settings = episode.thumbnailSettings
        var rows: [(String, String)] = [
            ("id", episode.id.description),
            ("podcast", episode.podcastID.description),
            ("number", "\(episode.number)"),
            ("title", episode.title),
            ("description", episode.description ?? "–"),
            ("published", episode.publishDate?.text ?? "–"),
            ("created", episode.createdAt.text),
            ("updated", episode.updatedAt.text),
            ("transcript", episode.transcript.map(blob) ?? "–"),
            ("subtitles", episode.subtitles.map { "\($0.cueCount) cues, " + blob($0.blob) } ?? "–"),
            ("background", episode.background.map(image) ?? "–"),
            ("overlay", episode.overlay.map(image) ?? "–"),
            ("thumbnail", episode.thumbnail.map { "\($0.format.rawValue), " + image($0.image) } ?? "–"),
            ("thumbnail text", episode.thumbnailText),
            ("font", "\(settings.fontName ?? "default bold") \(number(settings.fontSize)) pt, \(settings.fontColorHex)"
                + (settings.outlineEnabled ? ", outline \(settings.outlineColorHex)" : ", no outline")),
            ("text position", "\(number(settings.textPositionX)), \(number(settings.textPositionY)); padding "
                + "\(number(settings.horizontalPadding)) x \(number(settings.verticalPadding)) px"),
            ("canvas", "\(settings.canvasWidth)x\(settings.canvasHeight), \(settings.backgroundScaling.rawValue)"),
        ]
        if episode.subtitles != nil, episode.subtitles?.transcript != episode.transcript {
            rows[9].1 += " (outdated: the transcript changed since)"
        }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { label, value in label + ":" + String(repeating: " ", count: width - label.count + 1) + value }
    }

    private static func blob(_ ref: BlobRef) -> String { "\(ref.byteCount) bytes, sha256 \(ref.sha256.prefix(12))" }
    private static func image(_ ref: ImageRef) -> String { "\(ref.width)x\(ref.height), " + blob(ref.blob) }
    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
