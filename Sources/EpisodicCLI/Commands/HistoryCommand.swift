import ArgumentParser
import Episodic

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "A podcast's or an episode's timeline: one entry per command, who, when, and what changed.",
        discussion: """
            A podcast's history includes its episodes'. A blob is shown by its size and a hash prefix. On a terminal \
            a long history goes through $PAGER (or less, opened at the newest entries), as `log` does.

            Examples:
              episodic history "Night Shift"
              episodic history "Night Shift/3" -n 5   the newest five commands
              episodic history 98dddbb6 --json   by the start of its id, for scripts
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The podcast or episode: an id (deleted ones too), an id prefix, a podcast's name, or <podcast>/<number>.", completion: .podcastAndEpisodeNames)
    var target: String
    @Option(name: [.customShort("n"), .long], parsing: .unconditional, help: "Only the newest this many commands.",
            transform: NumberArgument.whole(0...Int.max))
    var limit: Int?

    func run() throws {
        try Session.run(global) { session in
            let library = try session.library()
            var entries: [HistoryEntry]
            switch try library.resolveEntity(target) {
            case .podcast(let id): entries = try library.history(of: id)
            case .episode(let id): entries = try library.history(of: id)
            }
            entries = Array(entries.suffix(limit ?? entries.count))
            if global.json { return session.printJSON(entries.map(HistoryRecord.init)) }
            guard !entries.isEmpty else { return Terminal.say("No history: nothing in the log touched \(target).") }
            // Each line fitted to the terminal's width, as tables are (measured before a pager takes
            // stdout); --json has them whole.
            let width = Terminal.width
            let pager = Pager.start(unless: global.noPager)
            defer { pager?.finish() }
            func say(_ line: TerminalText) { Terminal.say(width.map { line.cut(to: $0) } ?? line) }
            for entry in entries {
                let positions = entry.positions.lowerBound == entry.positions.upperBound
                    ? "\(entry.positions.lowerBound)" : "\(entry.positions.lowerBound)-\(entry.positions.upperBound)"
                let undo = entry.undoes.map { ", undoing \($0.description.prefix(8))" } ?? ""
                say("\(session.times.instant(entry.time))  \(entry.actor)  command \(entry.commandID.description.prefix(8))\(undo)  (position \(positions))")
                for change in entry.changes {
                    if change.field == "existence" {
                        say("    \(change.entity): \(change.after)")
                    } else if !change.parts.isEmpty {
                        say("    \(change.entity) \(change.fieldName): \(change.partsText)")
                    } else {
                        let head = TerminalText("    \(change.entity) \(change.fieldName): ")
                        let (before, after) = Self.fitted(change.before, change.after, room: width.map { $0 - head.width - 3 })
                        say(head + before + " → " + after)
                    }
                }
            }
        }
    }
}

extension HistoryCommand {
    /// A change's values shortened to share `room` columns (nil: whole), rather than the line cut where
    /// it ends: the shorter keeps its whole text when it can, and each keeps at least a few characters.
    static func fitted(_ before: String, _ after: String, room: Int?) -> (TerminalText, TerminalText) {
        let (old, new) = (TerminalText(before), TerminalText(after))
        guard let room, old.width + new.width > room else { return (old, new) }
        let half = max(room / 2, 8)
        if old.width <= half { return (old, new.cut(to: max(room - old.width, 8))) }
        if new.width <= half { return (old.cut(to: max(room - new.width, 8)), new) }
        return (old.cut(to: half), new.cut(to: max(room - half, 8)))
    }
}

private struct HistoryRecord: Encodable {
    struct Change: Encodable {
        var entity: String
        var field: String
        var before: String
        var after: String
    }

    var commandID: String
    var actor: String
    var time: String
    var firstPosition: UInt64
    var lastPosition: UInt64
    var undoes: String?
    var changes: [Change]

    init(_ entry: HistoryEntry) {
        commandID = entry.commandID.description
        actor = entry.actor
        time = entry.time.text
        firstPosition = entry.positions.lowerBound.rawValue
        lastPosition = entry.positions.upperBound.rawValue
        undoes = entry.undoes?.description
        changes = entry.changes.map { Change(entity: $0.entity, field: $0.field, before: $0.before, after: $0.after) }
    }
}
