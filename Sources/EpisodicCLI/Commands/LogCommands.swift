import ArgumentParser
import Episodic
import Foundation

struct LogCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "Read the log for audit, verify it, repair its end, or compact it.",
        subcommands: [List.self, Verify.self, Repair.self, Compact.self], defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List events in order: position, time, actor, command, stream, type, and what they set.",
            discussion: """
                `episodic log` alone does this. --json prints each event's envelope, its command id under \
                `commandID` as in every other JSON result; --raw prints the envelopes exactly as appended \
                (compaction leaves out the prev hash of most commits; both put it back).

                Examples:
                  episodic log -n 20 --reverse   the newest 20, newest first
                  episodic log --episode "Night Shift/3" --actor ana
                  episodic log --podcast "Night Shift" --since 2026-11-01 --type EpisodeRetitled
                  episodic log list --follow     new events as they come
                """)
        @OptionGroup var global: GlobalOptions
        @Option(help: "Only this podcast's events and its episodes'.", completion: .podcastNames) var podcast: String?
        @Option(help: "Only this episode's events.", completion: .episodeNames) var episode: String?
        @Option(help: "Only this stream's events (e.g. episode-<uuid>). Repeatable.") var stream: [String] = []
        @Option(help: "Only events of this type (e.g. EpisodeRetitled). Repeatable.") var type: [String] = []
        @Option(name: .customLong("actor"), help: "Only events by this actor. Repeatable.") var actors: [String] = []
        @Option(help: "Only the events of this command: its id, or the start of it.") var command: String?
        @Option(parsing: .unconditional, help: ArgumentHelp(
            "From this position or time (2026-11-21, 2026-11-21T18:30:00Z, yesterday, monday, \"2 days ago\").", valueName: "position|time"))
        var since: String?
        @Option(parsing: .unconditional, help: ArgumentHelp("Up to this position or time.", valueName: "position|time")) var until: String?
        @Flag(help: "Keep watching, and print new events as they are appended (Ctrl-C stops).") var follow = false
        @Option(name: [.customShort("n"), .long], parsing: .unconditional, help: "Only the newest this many events (of those the filters keep).",
                transform: NumberArgument.whole(0...Int.max))
        var limit: Int?
        @Flag(help: "Newest first.") var reverse = false
        @Flag(help: "Print each event's envelope exactly as it was appended (its command id under `command`).")
        var raw = false

        func validate() throws {
            if follow && reverse { throw ValidationError("--follow prints events as they come, oldest first; leave out --reverse.") }
            for name in type where !EventTypeNames.all.contains(name) {
                throw ValidationError(EventTypeNames.unknown(name))
            }
        }

        func run() throws {
            try Session.run(global) { session in
                let library = try session.library()
                // Lines fitted to the terminal's width, as tables are (measured before a pager takes stdout).
                let width = Terminal.width
                let pager = Pager.start(unless: global.noPager || follow || global.json || raw)
                defer { pager?.finish() }
                var filter = LogFilter()
                filter.podcast = try podcast.map { try library.resolve(PodcastReference.text($0)) }
                filter.episode = try episode.map { try library.resolve(EpisodeReference.text($0)) }
                filter.streams = Set(try stream.map { text in
                    guard let id = StreamID(rawValue: text) else { throw ValidationError("\(text) is not a stream id.") }
                    return id
                })
                filter.types = Set(type)
                filter.actors = Set(actors)
                filter.command = try command.map { try library.resolve(CommandReference.text($0)) }
                filter.since = try since.map { try Self.bound($0, session: session) }
                filter.until = try until.map { try Self.bound($0, session: session) }
                let podcastName = library.podcastNamer()
                let names = EntityNames(podcast: podcastName, episode: library.episodeNamer(podcastName: podcastName))
                let print = { (logged: LoggedEvent) in
                    if raw {
                        Swift.print(logged.line)
                    } else if global.json {
                        Swift.print(Self.jsonLine(logged.line))
                    } else {
                        Terminal.say(Self.line(logged, times: session.times, names: names, width: width))
                    }
                    if follow { fflush(nil) }
                }
                if follow, let limit {
                    // The newest `limit` up to the head, then what comes after it.
                    let head = library.head
                    var shown = filter
                    if shown.until == nil { shown.until = .position(head) }
                    for logged in try Self.newest(limit, of: shown, in: library) { print(logged) }
                    var rest = filter
                    if case .position(let since)? = filter.since, since > head {} else { rest.since = .position(head.next) }
                    try library.followLog(rest, keepGoing: { true }, print)
                } else if follow {
                    try library.followLog(filter, keepGoing: { true }, print)
                } else if limit == nil && !reverse {
                    try library.readLog(filter, print)
                } else {
                    let window = try Self.newest(limit, of: filter, in: library)
                    for logged in reverse ? Array(window.reversed()) : window { print(logged) }
                }
            }
        }

        /// The newest `limit` events `filter` keeps (all of them for nil), oldest first: the last ones
        /// read, kept in a window that drops the oldest.
        static func newest(_ limit: Int?, of filter: LogFilter, in library: Library) throws -> [LoggedEvent] {
            var kept: [LoggedEvent] = []
            var first = 0
            try library.readLog(filter) { logged in
                guard limit != 0 else { return }
                kept.append(logged)
                if let limit, kept.count - first > limit { first += 1 }
                if first > 4_096, first * 2 > kept.count { kept.removeFirst(first); first = 0 }
            }
            return Array(kept[first...])
        }

        /// A position or a time (`yesterday`, `2 days ago` and weekdays in the local zone, or UTC with
        /// `--utc`). Text that reads as a number but is no position (`-1`, `1e18`, `nan`) is a usage
        /// error that gives the range; anything else is taken for a time that could not be read.
        static func bound(_ text: String, session: Session) throws -> LogBound {
            if let bound = LogBound(text, now: session.now, timeZone: session.times.zone) { return bound }
            if Double(text.trimmingSpaces) != nil {
                throw ValidationError("\"\(text)\" is not a log position: give a whole number from 0 to \(UInt64.max), "
                    + "or a time (2026-11-21, 2026-11-21T18:30:00Z, yesterday, monday, 2 days ago).")
            }
            throw LibraryError.invalidTime(text)
        }

        /// The stored envelope with its command id under `commandID`, the key every other result uses.
        /// The envelope's fields come in a fixed order and those before `command` hold no unescaped
        /// quote (`schemas/log-format.md`), so the first `,"command":` is the key.
        static func jsonLine(_ stored: String) -> String {
            guard let key = stored.range(of: #","command":"#) else { return stored }
            return stored.replacingCharacters(in: key, with: #","commandID":"#)
        }

        /// How a log line names the podcast or episode an event belongs to.
        struct EntityNames {
            let podcast: (PodcastID) -> String?
            let episode: (EpisodeID) -> String?

            /// `Night Shift/3`, `Night Shift`; for another stream, or one that cannot be named, its kind and id prefix.
            func name(of stream: StreamID) -> String {
                let text = stream.rawValue
                let kind = text.prefix { $0 != "-" }
                let named: String? = switch kind {
                case "episode": EpisodeID(String(text.dropFirst(kind.count + 1))).flatMap(episode)
                case "podcast": PodcastID(String(text.dropFirst(kind.count + 1))).flatMap(podcast)
                default: nil
                }
                return named ?? kind + " " + text.dropFirst(kind.count + 1).prefix(8)
            }
        }

        /// One event on one line, its columns aligned whatever the log's length (and measured escaped).
        /// At a terminal narrower than the whole line, fields are shortened or left out rather than the line
        /// cut where it happens to end: a long name is shortened, then the command id, the actor and the
        /// time go in that order until the summary has room, and last the summary is cut. The event's type
        /// is never cut. Piped (`width` nil), every line is whole.
        static func line(_ logged: LoggedEvent, times: TimeText, names: EntityNames, width: Int?) -> TerminalText {
            let record = logged.record
            let undoes = record.undoes.map { "(undoes \($0.description.prefix(8))) " } ?? ""
            let summary = TerminalText(undoes + logged.summary(podcastName: names.podcast))
            let position = TerminalText(String(record.position.rawValue)).padded(to: 7, right: true)
            let entity = TerminalText(names.name(of: record.stream))
            let time = times.instant(record.timestamp)
            let whole: TerminalText = "\(position)  \(time)  \(TerminalText(record.actor).padded(to: 10))  "
                + "\(record.commandID.description.prefix(8))  \(entity.padded(to: 20))  \(TerminalText(record.type).padded(to: 31))  \(summary)"
            guard let width, whole.width > width else { return whole }
            // Each narrower layout leaves out one more field, until the summary has this much room.
            let room = 24
            var fields: [TerminalText] = [
                TerminalText(String(time.dropFirst(5).prefix(11))), TerminalText(record.actor).cut(to: 8).padded(to: 8),
            ]
            func layout() -> TerminalText {
                ([position] + fields + [entity.cut(to: 18).padded(to: 18), TerminalText(record.type).padded(to: 24)])
                    .reduce("") { $0.width == 0 ? $1 : $0 + "  " + $1 } + "  "
            }
            var short = layout()
            while width - short.width < room, !fields.isEmpty {
                fields.removeLast()
                short = layout()
            }
            let left = width - short.width
            return left >= 2 ? short + summary.cut(to: left) : short
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check the log's checksums and continuity, every blob's hash, and the read models against a replay.",
            discussion: """
                Exits 74 with a report of every difference found.

                Examples:
                  episodic log verify
                  episodic log verify --json
                """)
        @OptionGroup var global: GlobalOptions

        func run() throws {
            try Session.run(global) { session in
                let bar = ProgressBar("replaying", quiet: global.quiet)
                let result: LibraryVerification
                do {
                    result = try session.library().verify(progress: bar.update)
                } catch let error as EventLogError where error.isDamage {
                    // Too damaged to open: the log's own walk still reports everything it finds.
                    result = try Library.verifyLog(at: global.libraryPath)
                }
                bar.finish()
                if global.json {
                    session.printJSON(VerifyRecord(result))
                } else {
                    for line in Self.report(result) { Terminal.say(TerminalText(line)) }
                }
                if !result.isClean { throw ExitCode(ExitStatus.damaged.rawValue) }
            }
        }

        static func report(_ result: LibraryVerification) -> [String] {
            let log = result.log
            var lines = [
                "log: \(Amount.count(Int(log.events), "event")) in \(Amount.count(log.frames, "frame")) of "
                    + "\(Amount.count(log.segments, "segment")), \(Amount.count(log.streams, "stream")), "
                    + "\(Amount.count(log.blobs, "blob")) checked: " + (log.isClean ? "all good" : Amount.count(log.problems.count, "problem"))
            ]
            lines += log.problems.map { "  - \($0)" }
            if !log.isClean {
                lines.append("chain: not vouched for, the log has the problems above")
            } else if let start = log.chainStart, let head = log.headHash {
                lines.append("chain: every commit from position \(start) names the hash of the one before it; the last commit's hash is \(head)")
            } else if log.events > 0 {
                lines.append("chain: none (written before log format 2; the next commit starts it)")
            }
            if let tail = log.unacknowledgedTail {
                lines.append("note: \(tail); nothing shows it was acknowledged (a command died while writing it). The next command "
                    + "that writes sets it aside in quarantine/; `episodic log repair` does it now.")
            }
            if !log.isClean {
                lines.append("read models: not compared, the log is damaged. Restore the damaged files from a backup.")
            } else if !result.readModelProblems.isEmpty {
                lines.append("read models: damaged")
                lines += result.readModelProblems.map { "  - \($0)" }
                if let kept = result.readModelSetAside {
                    lines.append("  It was set aside as \(kept); the next command rebuilds the read models from the log.")
                } else {
                    lines.append("  The log is intact; `episodic projections rebuild --all` rebuilds the read models from it.")
                }
            } else {
                let at = result.comparedAt.map { $0.rawValue == log.events ? "" : " (compared at position \($0), where they stand)" } ?? ""
                lines.append("read models: " + (result.readModel.isEmpty
                    ? "identical to a replay of the log" : "\(Amount.count(result.readModel.count, "difference")) from a replay of the log") + at)
                lines += result.readModel.map { "  - \($0)" }
                if !result.readModel.isEmpty {
                    lines.append("  The log is intact; `episodic projections rebuild --all` rebuilds the read models from it.")
                }
            }
            if let server = result.server {
                if server.isClean {
                    lines.append("server: \(server.location) holds the same \(server.localHead) events, hashing to \(server.serverHash), "
                        + "and every commit through its head (\(server.serverHead)) continues the chain")
                } else {
                    lines.append(server.serverHash == server.localHash
                        ? "server: \(server.location): \(Amount.count(server.problems.count, "problem"))"
                        : "server: \(server.location) does not hold this machine's log: its commits through position \(server.localHead) "
                            + "hash to \(server.serverHash.isEmpty ? "nothing" : server.serverHash), this machine's to \(server.localHash)")
                    lines += server.problems.map { "  - \($0)" }
                }
            }
            if !result.keptFoldProblems.isEmpty {
                lines.append("kept folds: \(result.keptFoldProblems.count) not the log's (removed; the next command folds their streams whole)")
                lines += result.keptFoldProblems.map { "  - \($0)" }
            }
            if !result.searchProblems.isEmpty {
                lines.append("search: \(Amount.count(result.searchProblems.count, "transcript")) could not be indexed")
                lines += result.searchProblems.map { "  - episode \($0.episodeID): \($0.message)" }
            }
            return lines
        }
    }
}

extension LogCommands {
    struct Repair: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "repair",
            abstract: "Set aside what is not a whole commit at the end of the log (or past a shared library's head), or accept a loss.",
            discussion: """
                Any command that writes does this on its own when the log ends in a commit that was never \
                acknowledged (its command died while writing it): the bytes are moved into quarantine/, never \
                deleted. This command does it without writing anything else.

                When something shows that acknowledged commits are missing or changed (the library's head \
                record, HEAD, written after each commit; the read models, which had seen them; the stream \
                index), the log is left as it is and every write is refused (exit 74). Restore the library \
                from a backup (`episodic restore`), or, with --accept-loss, go on without them: damaged bytes \
                at the end go to quarantine/ as well, the read models that had seen the lost commits are kept \
                under read/ and rebuilt from the log, and the log records the loss (a LossAccepted event, by \
                --actor), so that `episodic log` shows it. A log put back from an older copy on purpose is \
                accepted the same way. A hash chain broken in the middle of the log cannot be accepted: \
                restore a backup.

                On a shared library, it also shows the rows the server holds past its head: no append wrote them \
                (an append moves the head over what it writes), no machine holds them, and they stop every \
                append (exit 74). With --set-aside-server-rows they are moved into the schema's set_aside table, \
                kept as they were. A row the head covers is never touched: one that was changed on the server \
                is restored with the server's database.

                Examples:
                  episodic log repair
                  episodic log repair --accept-loss
                  episodic log repair --set-aside-server-rows
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var actor: ActorOption
        @Flag(help: "Go on without acknowledged commits the log no longer holds as they were, recording the loss in the log.")
        var acceptLoss = false
        @Flag(help: .hidden) var discardDamagedTail = false
        @Flag(help: "On a shared library, move the rows the server holds past its head into the schema's set_aside table.")
        var setAsideServerRows = false

        func run() throws {
            try Session.run(global, actor: actor) { session in
                let library = try session.library()
                if acceptLoss || discardDamagedTail { return try accept(on: library, session: session) }
                let recovered = try library.repair()
                let head = library.head
                let past = try library.rowsPastServerHead()
                let setAside = past != nil && setAsideServerRows ? try library.setAsideRowsPastServerHead() : nil
                if global.json {
                    session.printJSON(RepairRecord(
                        recovered: recovered.map(RecoveredRecord.init), head: head.rawValue,
                        server: past.map { ServerRecord($0, setAside: setAside) }))
                } else {
                    if recovered.isEmpty {
                        Terminal.say("The log ends cleanly at position \(head.rawValue); nothing to repair.")
                    }
                    // What was set aside is said on stderr, as after any command that writes.
                    if let past { Self.report(past, setAside: setAside) }
                }
                if past != nil && setAside == nil { throw ExitCode(ExitStatus.damaged.rawValue) }
            }
        }

        /// Accepts the loss of what the log no longer holds as acknowledged, and says what was recorded.
        private func accept(on library: Library, session: Session) throws {
            let accepted = try library.acceptLoss(actor: session.actor)
            if global.json {
                return session.printJSON(RepairRecord(
                    recovered: (accepted?.setAside ?? []).map(RecoveredRecord.init), head: library.head.rawValue,
                    accepted: accepted.map(AcceptedRecord.init)))
            }
            guard let accepted else {
                return Terminal.say("Nothing was lost: the log holds every commit that was acknowledged, as it was written.")
            }
            Terminal.say(TerminalText("Accepted the loss of " + Library.lossText(accepted.loss) + "; recorded at position "
                + "\(accepted.position) by \(session.actor)."))
            if let kept = accepted.readModelsKept {
                Terminal.say(TerminalText("The read models that had seen it are kept as \(kept); they were rebuilt from the log."))
            }
        }

        /// What the server holds past its head, and what became of it.
        static func report(_ past: RowsPastHead, setAside: Int?) {
            let count = past.events.count
            Terminal.say(TerminalText(
                "The shared library's server holds \(Amount.events(UInt64(count))) past its head (position \(past.head.rawValue)), "
                    + "from position \(past.first.rawValue) on; no append wrote them, and they stop every append:"))
            for event in past.events {
                Terminal.say(TerminalText("  \(event.position.rawValue)  \(event.type)  by \(event.actor)  in \(event.stream.rawValue)"))
            }
            if let setAside {
                Terminal.say("Set aside \(Amount.count(setAside, "row")) into the schema's set_aside table; appends go on.")
            } else {
                Terminal.say("`episodic log repair --set-aside-server-rows` moves them into the schema's set_aside table.")
            }
        }
    }
}

private struct RepairRecord: Encodable {
    var recovered: [RecoveredRecord]
    var head: UInt64
    var accepted: AcceptedRecord?
    var server: ServerRecord?
}

/// A loss accepted, as `log repair --accept-loss --json` prints it.
private struct AcceptedRecord: Encodable {
    var position: UInt64
    var lostFrom: UInt64?
    var lostThrough: UInt64?
    var altered: UInt64?
    var witness: String
    var recordedHash: String?
    var readModelsKept: String?

    init(_ accepted: AcceptedLoss) {
        position = accepted.position.rawValue
        lostFrom = accepted.loss.lostFrom
        lostThrough = accepted.loss.lostThrough
        altered = accepted.loss.altered
        witness = accepted.loss.witness
        recordedHash = accepted.loss.recordedHash
        readModelsKept = accepted.readModelsKept
    }
}

/// What a repair found past a shared library's head, and whether it set it aside.
private struct ServerRecord: Encodable {
    struct Row: Encodable {
        var position: UInt64
        var type: String
        var actor: String
        var stream: String
    }

    var head: UInt64
    var firstPastHead: UInt64
    var pastHead: [Row]
    var setAside: Int?

    init(_ past: RowsPastHead, setAside: Int?) {
        head = past.head.rawValue
        firstPastHead = past.first.rawValue
        pastHead = past.events.map { Row(position: $0.position.rawValue, type: $0.type, actor: $0.actor, stream: $0.stream.rawValue) }
        self.setAside = setAside
    }
}

private struct VerifyRecord: Encodable {
    struct Difference: Encodable {
        var table: String
        var id: String
        var column: String?
        var live: String?
        var replayed: String?
    }

    struct Tail: Encodable {
        var segment: String
        var offset: UInt64
        var bytes: UInt64
        var reason: String
    }

    var clean: Bool
    var events: UInt64
    var commits: Int
    var chainStart: UInt64?
    var headHash: String?
    var unacknowledgedTail: Tail?
    var logProblems: [String]
    var readModelProblems: [String]
    var readModelSetAside: String?
    var comparedAt: UInt64?
    var readModelDifferences: [Difference]
    var searchProblems: [String]
    var keptFoldProblems: [String]
    var server: Server?

    struct Server: Encodable {
        var location: String
        var serverHead: UInt64
        var localHead: UInt64
        var serverHash: String
        var localHash: String
        var problems: [String]
        var clean: Bool
    }

    init(_ result: LibraryVerification) {
        clean = result.isClean
        events = result.log.events
        commits = result.log.commits
        chainStart = result.log.chainStart?.rawValue
        headHash = result.log.headHash
        unacknowledgedTail = result.log.unacknowledgedTail.map { Tail(segment: $0.segment, offset: $0.offset, bytes: $0.bytes, reason: $0.reason) }
        logProblems = result.log.problems.map(\.description)
        readModelProblems = result.readModelProblems
        readModelSetAside = result.readModelSetAside
        comparedAt = result.comparedAt?.rawValue
        readModelDifferences = result.readModel.map {
            Difference(table: $0.table, id: $0.id, column: $0.column, live: $0.live, replayed: $0.replayed)
        }
        searchProblems = result.searchProblems.map { "episode \($0.episodeID): \($0.message)" }
        keptFoldProblems = result.keptFoldProblems
        server = result.server.map {
            Server(
                location: $0.location, serverHead: $0.serverHead.rawValue, localHead: $0.localHead.rawValue, serverHash: $0.serverHash,
                localHash: $0.localHash, problems: $0.problems, clean: $0.isClean)
        }
    }
}
