import Episodic

/// One episode as labelled lines for people.
enum EpisodeSheet {
    /// The episode as the read model has it now; `podcastName` as people know its podcast, `artwork` its
    /// podcast's (a background that is the artwork says so).
    static func lines(_ detail: EpisodeDetail, podcastName: String?, artwork: BlobRef? = nil, times: TimeText) -> [TerminalText] {
        let episode = Episode(
            id: detail.id, podcastID: detail.podcastID, title: detail.title, number: detail.number,
            description: detail.description, publishDate: detail.publishDate, createdAt: detail.createdAt,
            thumbnailSettings: detail.thumbnailSettings, thumbnailText: detail.thumbnailText, transcript: detail.transcript,
            subtitles: detail.subtitles, background: detail.background, overlay: detail.overlay, thumbnail: detail.thumbnail)
        var withWarnings = episode
        withWarnings.transcriptWarnings = detail.transcriptWarnings
        return lines(withWarnings, podcastName: podcastName, artwork: artwork, updatedAt: detail.updatedAt, times: times)
    }

    /// The episode as a fold of the log gives it, or the read model (the same lines, so that `show` and
    /// `episode show` agree); `updatedAt` is the time of its last event.
    static func lines(_ episode: Episode, podcastName: String?, artwork: BlobRef? = nil, updatedAt: Timestamp?, times: TimeText) -> [TerminalText] {
        var rows: [(String, String)] = [
            ("id", episode.id.description),
            ("podcast", podcastName.map { "\($0) (\(episode.podcastID.description.prefix(8)))" } ?? episode.podcastID.description),
            ("number", "\(episode.number)"),
            ("title", episode.title),
            ("description", episode.description ?? "–"),
            ("published", episode.publishDate.map(TimeText.calendarDay) ?? "–"),
            ("created", times.instant(episode.createdAt)),
            ("updated", updatedAt.map(times.instant) ?? "–"),
            ("transcript", episode.transcript.map(blob) ?? "–"),
            ("subtitles", episode.subtitles.map { Amount.count($0.cueCount, "cue") + ", " + blob($0.blob) } ?? "–"),
            ("background", episode.background.map { image($0) + ($0.blob == artwork ? " (the podcast's artwork)" : "") } ?? "–"),
            ("overlay", episode.overlay.map(image) ?? "–"),
            ("thumbnail", episode.thumbnail.map {
                "\($0.format.rawValue), " + image($0.image) + ", text drawn at \(number($0.drawnFontSize)) pt"
            } ?? "–"),
            ("thumbnail text", episode.effectiveThumbnailText + (episode.thumbnailText == .title ? " (follows the title)" : "")),
        ] + settingsRows(episode.thumbnailSettings)
        if episode.subtitlesOutdated { rows[9].1 += " (outdated: the transcript changed since)" }
        if let thumbnail = episode.thumbnail, episode.thumbnailOutdated {
            rows[12].1 += thumbnail.fontRemoved ? " (outdated: its font was removed since)" : " (outdated: its inputs changed since)"
        }
        if !episode.thumbnailWarnings.isEmpty {
            rows[12].1 += "\n" + episode.thumbnailWarnings.map { "warning: \($0)" }.joined(separator: "\n")
        }
        if !episode.transcriptWarnings.isEmpty {
            rows[8].1 += "\n" + episode.transcriptWarnings.map { "warning: \($0)" }.joined(separator: "\n")
        }
        return labelled(rows)
    }

    /// Thumbnail settings as rows: an episode's, or a podcast's defaults.
    static func settingsRows(_ settings: ThumbnailSettings) -> [(String, String)] {
        [
            ("font", "\(settings.fontName ?? "default bold") \(number(settings.fontSize)) pt, \(settings.fontColorHex)"
                + (settings.outlineEnabled ? ", outline \(settings.outlineColorHex)" : ", no outline")),
            ("text position", "\(number(settings.textPositionX)), \(number(settings.textPositionY)); padding "
                + "\(number(settings.horizontalPadding)) x \(number(settings.verticalPadding)) px"),
            ("canvas", "\(settings.canvasWidth)x\(settings.canvasHeight), \(settings.backgroundScaling.rawValue)"),
            ("text fit", settings.textFit.rawValue),
            // A short label, so that the labels' column stays as wide as it was.
            ("overlay drawn", settings.overlayPlacement == .original
                ? "original x\(number(settings.overlayScale)) at "
                    + (settings.overlayPosition?.argument ?? "\(number(settings.overlayPositionX)), \(number(settings.overlayPositionY))")
                : settings.overlayPlacement.rawValue),
        ]
    }

    /// `label: value` lines, values aligned. A value of several lines (a description: LF, CR LF or CR)
    /// goes on as lines indented under its first; every value is escaped (``TerminalText``).
    static func labelled(_ rows: [(String, String)]) -> [TerminalText] {
        let width = rows.map(\.0.count).max() ?? 0
        let indent = TerminalText(stringLiteral: String(repeating: " ", count: width + 2))
        return rows.flatMap { label, value in
            let lines = value.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
            let first = TerminalText(stringLiteral: label + ":").padded(to: width + 2) + TerminalText(lines[0])
            return [first] + lines.dropFirst().map { indent + TerminalText($0) }
        }
    }

    private static func blob(_ ref: BlobRef) -> String { "\(ref.byteCount) bytes, sha256 \(ref.sha256.prefix(12))" }
    static func image(_ ref: ImageRef) -> String { "\(ref.width)x\(ref.height), " + blob(ref.blob) }
    /// `72` for a whole number, `72.5` otherwise; a value outside any setting's range (from an older log)
    /// is printed as it is, never converted to an integer that cannot hold it.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
