import ArgumentParser
import Episodic

struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Where the library is, what its log and files hold, and its last backup.",
        discussion: """
            Location and kind (a library of its own, or the side of a shared one), the log's format, head and \
            segments, the size of its files, how many podcasts, episodes and fonts it holds (deleted ones \
            apart), where each read model stands, and when it was last backed up, and where to.

            Only reads: it works on a library it cannot write, and catches no read model up. The counts come \
            from the log, so they stand whatever the read models say.

            Examples:
              episodic info
              episodic info --json   for scripts (schemas/cli-output.md)
            """)
    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Session.run(global) { session in
            let info = try session.library().info()
            if global.json { return session.printJSON(InfoRecord(info)) }
            for line in EpisodeSheet.labelled(Self.rows(info, times: session.times)) { Terminal.say(line) }
        }
    }

    /// The labelled lines for people.
    static func rows(_ info: LibraryInfo, times: TimeText) -> [(String, String)] {
        let segments = info.segments
        let sealed = segments.filter(\.isSealed)
        let segmentText = switch (segments.count, sealed.count) {
        case (0, _): "none yet"
        case (_, 0): "1, being written"
        default: "\(segments.count): \(sealed.count) sealed (\(sealed.filter(\.isCompacted).count) compacted), 1 being written"
        }
        let usage = info.diskUsage
        var parts = ["log \(Amount.size(usage.log))", "blobs \(Amount.size(usage.blobs))", "read models \(Amount.size(usage.readModels))",
                     "index \(Amount.size(usage.index))"]
        if usage.quarantine > 0 { parts.append("quarantine \(Amount.size(usage.quarantine))") }
        let format = info.formatVersion == Library.formatVersion
            ? "\(info.formatVersion)" : "\(info.formatVersion) (this build writes \(Library.formatVersion); the next command that writes upgrades it)"
        return [
            ("location", info.path),
            ("kind", info.shared.map { "the side of a shared library on \($0); this folder holds this machine's copy" } ?? "a library of its own"),
            ("format", format),
            ("head", info.head == .none ? "no events yet" : "position \(info.head.rawValue) (\(Amount.events(info.head.rawValue)))"),
            ("segments", segmentText),
            ("size", "\(Amount.size(usage.total)): " + parts.joined(separator: ", ")),
            ("podcasts", "\(info.podcasts.live) (\(info.podcasts.deleted) deleted)"),
            ("episodes", "\(info.episodes.live) (\(info.episodes.deleted) deleted)"),
            ("fonts", "\(info.fonts)"),
            ("read models", info.projections.map {
                "\($0.name): schema \($0.storedSchemaVersion.map(String.init) ?? "none"), at position \($0.checkpoint.rawValue), \($0.stateText)"
            }.joined(separator: "\n")),
            ("last backup", backupText(info.lastBackup, head: info.head, times: times)),
        ]
    }

    private static func backupText(_ backup: LastBackup, head: LogPosition, times: TimeText) -> String {
        switch backup {
        case .never:
            return "never"
        case .unreadable(let reason):
            return "unknown: \(reason)"
        case .noted(let note):
            let since = head.rawValue > note.head.rawValue ? "\(Amount.events(head.rawValue - note.head.rawValue)) since" : "nothing since"
            return "\(times.instant(note.time)) to \(note.archive), \(Amount.size(note.bytes)), through position \(note.head.rawValue) (\(since))"
        }
    }
}

/// `info --json`.
private struct InfoRecord: Encodable {
    struct Segments: Encodable {
        var count: Int
        var sealed: Int
        var compacted: Int
    }

    struct Bytes: Encodable {
        var log: UInt64
        var index: UInt64
        var blobs: UInt64
        var readModels: UInt64
        var quarantine: UInt64
        var other: UInt64
        var total: UInt64
    }

    struct Count: Encodable {
        var live: Int
        var deleted: Int
    }

    struct Backup: Encodable {
        var time: Timestamp
        var archive: String
        var head: UInt64
        var bytes: UInt64
    }

    var location: String
    var shared: String?
    var formatVersion: UInt32
    var head: UInt64
    var events: UInt64
    var segments: Segments
    var bytes: Bytes
    var podcasts: Count
    var episodes: Count
    var fonts: Int
    var projections: [ProjectionStatusRecord]
    var lastBackup: Backup?
    var lastBackupProblem: String?

    init(_ info: LibraryInfo) {
        location = info.path
        shared = info.shared.map(\.description)
        formatVersion = info.formatVersion
        head = info.head.rawValue
        events = info.head.rawValue
        let sealed = info.segments.filter(\.isSealed)
        segments = Segments(count: info.segments.count, sealed: sealed.count, compacted: sealed.filter(\.isCompacted).count)
        let usage = info.diskUsage
        bytes = Bytes(
            log: usage.log, index: usage.index, blobs: usage.blobs, readModels: usage.readModels, quarantine: usage.quarantine,
            other: usage.other, total: usage.total)
        podcasts = Count(live: info.podcasts.live, deleted: info.podcasts.deleted)
        episodes = Count(live: info.episodes.live, deleted: info.episodes.deleted)
        fonts = info.fonts
        projections = info.projections.map(ProjectionStatusRecord.init)
        switch info.lastBackup {
        case .never: break
        case .noted(let note): lastBackup = Backup(time: note.time, archive: note.archive, head: note.head.rawValue, bytes: note.bytes)
        case .unreadable(let reason): lastBackupProblem = reason
        }
    }
}
