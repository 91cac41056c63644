import Episodic

// What `--json` prints: stable, documented in schemas/cli-output.md. Keys are sorted; a key whose
// value is absent (no description, no publish date) is left out.

/// What a command that changes something did.
struct OutcomeRecord: Encodable {
    struct Positions: Encodable {
        var first: UInt64
        var last: UInt64
    }

    var command: String
    var commandID: String
    var created: String?
    var events: [String]
    var positions: Positions?
    /// What the writer set aside from the end of the log before this command, on the first result line
    /// after it; absent nearly always.
    var recovered: [RecoveredRecord]?
    /// What a transcript import or conversion read past; absent when nothing was.
    var warnings: [TranscriptWarningRecord]?
    /// What would make a thumbnail poor; absent when nothing would.
    var thumbnailWarnings: [ThumbnailWarningRecord]?
    /// For a render: the size the text was drawn at, in points; absent for other commands.
    var drawnFontSize: Double?

    init(_ outcome: SubmitOutcome) {
        command = outcome.name
        commandID = outcome.commandID.description
        created = outcome.created?.description
        events = outcome.events.map(\.type)
        positions = outcome.positions.map { Positions(first: $0.lowerBound.rawValue, last: $0.upperBound.rawValue) }
        warnings = outcome.warnings.isEmpty ? nil : outcome.warnings.map(TranscriptWarningRecord.init)
        thumbnailWarnings = outcome.thumbnailWarnings.isEmpty ? nil : outcome.thumbnailWarnings.map(ThumbnailWarningRecord.init)
        drawnFontSize = outcome.rendered?.drawnFontSize
    }

    /// The same, for people.
    var sentence: String {
        var parts = [command + ":"]
        if let created { parts.append("created \(created);") }
        if let positions {
            let count = events.count
            let at = positions.first == positions.last ? "position \(positions.first)" : "positions \(positions.first)-\(positions.last)"
            parts.append("\(count) event\(count == 1 ? "" : "s") at \(at) (\(events.joined(separator: ", "))), command \(commandID)")
        } else {
            parts.append("nothing to change")
        }
        return parts.joined(separator: " ")
    }
}

/// `transcript show --json`: the transcript's text, and its warnings when there are any.
struct TranscriptRecord: Encodable {
    var text: String
    var warnings: [TranscriptWarningRecord]?

    init(text: String, warnings: [TranscriptWarningRecord]) {
        self.text = text
        self.warnings = warnings.isEmpty ? nil : warnings
    }
}

/// What an export wrote: `--json` prints it when the export went to a file (to standard output, the
/// content is the output).
struct ExportRecord: Encodable {
    var command: String
    var file: String
    var format: String
    var bytes: Int
    /// For subtitles: made from a transcript that has changed since.
    var outdated: Bool?
}

/// A defect of a transcript that was read past: its kind (`header`, `timeOutOfOrder`,
/// `damagedTimestamp`, `rangeEnd`, `textOutsideCue`, `controlCharacters`, `more`), its line, and what was assumed.
struct TranscriptWarningRecord: Encodable {
    var kind: String
    var line: Int
    var message: String

    init(_ warning: TranscriptWarning) {
        kind = warning.kind.rawValue
        line = warning.line
        message = warning.message
    }
}

/// A command of a batch that was refused; `index` counts the batch's commands from 0.
struct RefusalRecord: Encodable {
    var command: String
    var index: Int
    /// The script's line, 1-based, blank lines counted.
    var line: Int
    var error: ErrorRecord.Details
}

/// An episode of `--outdated` work that was refused, in its place among the done ones.
struct BatchRefusalRecord: Encodable {
    var command: String
    /// The episode, as `<podcast>/<number>`.
    var episode: String
    var error: ErrorRecord.Details
}

struct ErrorRecord: Encodable {
    struct Details: Encodable {
        var kind: String
        var message: String
    }

    var error: Details
}

/// What a command tells about the read models it answered from, on stderr (`Session.warn`).
struct WarningRecord: Encodable {
    struct Details: Encodable {
        var kind: String
        var message: String
        var eventsBehind: UInt64?
    }

    var warning: Details
}

struct PodcastRecord: Encodable {
    var id: String
    var name: String
    var description: String?
    var createdAt: Timestamp
    var episodeCount: Int
    var missingTranscriptCount: Int
    var missingThumbnailCount: Int
    var artwork: BlobRef?

    init(_ podcast: PodcastSummary) {
        id = podcast.id.description
        name = podcast.name
        description = podcast.description
        createdAt = podcast.createdAt
        episodeCount = podcast.episodeCount
        missingTranscriptCount = podcast.missingTranscriptCount
        missingThumbnailCount = podcast.missingThumbnailCount
        artwork = podcast.artwork
    }
}

struct EpisodeSummaryRecord: Encodable {
    var id: String
    var podcastID: String
    var title: String
    var number: Int
    var publishDate: Timestamp?
    var createdAt: Timestamp
    var updatedAt: Timestamp
    var hasTranscript: Bool
    var hasSRT: Bool
    var srtOutdated: Bool
    var hasThumbnail: Bool
    var thumbnailOutdated: Bool

    init(_ episode: EpisodeSummary) {
        id = episode.id.description
        podcastID = episode.podcastID.description
        title = episode.title
        number = episode.number
        publishDate = episode.publishDate
        createdAt = episode.createdAt
        updatedAt = episode.updatedAt
        hasTranscript = episode.hasTranscript
        hasSRT = episode.hasSRT
        srtOutdated = episode.srtOutdated
        hasThumbnail = episode.hasThumbnail
        thumbnailOutdated = episode.thumbnailOutdated
    }
}

struct EpisodeDetailRecord: Encodable {
    var id: String
    var podcastID: String
    var title: String
    var number: Int
    var description: String?
    var publishDate: Timestamp?
    var createdAt: Timestamp
    var updatedAt: Timestamp
    var thumbnailSettings: ThumbnailSettings
    /// The words the thumbnail draws now.
    var thumbnailText: String
    var thumbnailTextSource: ThumbnailTextSource
    var transcript: BlobRef?
    /// The transcript's defects read past at import; absent when there are none.
    var transcriptWarnings: [TranscriptWarningRecord]?
    var subtitles: SubtitlesRef?
    var background: ImageRef?
    var overlay: ImageRef?
    var thumbnail: RenderedThumbnail?
    /// What would make the thumbnail poor, as the inputs stand; absent when nothing would.
    var thumbnailWarnings: [ThumbnailWarningRecord]?

    init(_ episode: EpisodeDetail) {
        id = episode.id.description
        podcastID = episode.podcastID.description
        title = episode.title
        number = episode.number
        description = episode.description
        publishDate = episode.publishDate
        createdAt = episode.createdAt
        updatedAt = episode.updatedAt
        thumbnailSettings = episode.thumbnailSettings
        thumbnailText = episode.thumbnailWords
        thumbnailTextSource = ThumbnailTextSource(episode.thumbnailText)
        transcript = episode.transcript
        transcriptWarnings = episode.transcriptWarnings.isEmpty ? nil : episode.transcriptWarnings.map(TranscriptWarningRecord.init)
        subtitles = episode.subtitles
        background = episode.background
        overlay = episode.overlay
        thumbnail = episode.thumbnail
        let warnings = ThumbnailWarning.of(background: episode.background, overlay: episode.overlay, settings: episode.thumbnailSettings)
        thumbnailWarnings = warnings.isEmpty ? nil : warnings.map(ThumbnailWarningRecord.init)
    }
}

struct SearchHitRecord: Encodable {
    var episodeID: String
    var podcastID: String
    var podcastName: String?
    /// The episode's number in its podcast: with the podcast's name, `<podcast>/<number>` names it.
    var number: Int?
    var title: String
    var snippet: String
    var rank: Double

    init(_ hit: SearchHit) {
        episodeID = hit.episodeID.description
        podcastID = hit.podcastID.description
        podcastName = hit.podcastName
        number = hit.number
        title = hit.title
        snippet = hit.snippet
        rank = hit.rank
    }
}

struct ProjectionStatusRecord: Encodable {
    var name: String
    var schemaVersion: Int
    var storedSchemaVersion: Int?
    var checkpoint: UInt64
    var head: UInt64
    var eventsBehind: UInt64
    var current: Bool

    init(_ status: ProjectionStatus) {
        name = status.name
        schemaVersion = status.schemaVersion
        storedSchemaVersion = status.storedSchemaVersion
        checkpoint = status.checkpoint.rawValue
        head = status.head.rawValue
        eventsBehind = status.eventsBehind
        current = status.isCurrent
    }
}

/// A torn tail the writer moved into quarantine/: where it was, where it is, and the positions its
/// commit would have taken (never acknowledged).
struct RecoveredRecord: Encodable {
    var segment: String
    var offset: UInt64
    var bytes: UInt64
    var reason: String
    var quarantined: String
    var lastAcknowledged: UInt64
    var unacknowledged: [UInt64]
    /// Only for bytes given up with `log repair --accept-loss`: what showed they were acknowledged.
    var discardedAcknowledged: String?

    init(_ report: RecoveryReport) {
        segment = report.segment
        offset = report.offset
        bytes = report.bytesCut
        reason = report.reason
        quarantined = report.quarantined
        lastAcknowledged = report.lastAcknowledged.rawValue
        unacknowledged = report.unacknowledged.map(\.rawValue)
        discardedAcknowledged = report.discardedAcknowledged
    }
}

/// A thumbnail warning: its kind (`backgroundSmallerThanCanvas`, `overlayCropped`) and its message.
struct ThumbnailWarningRecord: Encodable {
    var kind: String
    var message: String

    init(_ warning: ThumbnailWarning) {
        kind = warning.kind
        message = warning.description
    }
}

extension SubmitOutcome {
    /// The thumbnail the command rendered, if it rendered one.
    var rendered: RenderedThumbnail? { renderedEvent?.thumbnail }

    /// The event that recorded the thumbnail the command rendered, if it rendered one.
    var renderedEvent: ThumbnailRendered? {
        events.lazy.compactMap { if case .thumbnailRendered(let e) = $0 { e } else { nil } }.first
    }
}

/// A deleted episode, for `episode list --deleted --json`.
struct DeletedEpisodeRecord: Encodable {
    var id: String
    var podcastID: String
    var number: Int
    var title: String
    /// The command that deleted it: `episodic undo` with it brings the episode back.
    var deletedBy: String?

    init(_ episode: DeletedEpisode, deletedBy: CommandID?) {
        id = episode.id.description
        podcastID = episode.podcastID.description
        number = episode.number
        title = episode.title
        self.deletedBy = deletedBy?.description
    }
}

/// Where a thumbnail's words come from: `EP <number>`, the episode's title, or words of the user's own.
enum ThumbnailTextSource: String, Encodable {
    case number, title, custom

    init(_ text: ThumbnailText) {
        switch text {
        case .episodeNumber: self = .number
        case .title: self = .title
        case .custom: self = .custom
        }
    }
}
