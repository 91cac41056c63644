import ArgumentParser
import Episodic
import Foundation

/// One invocation of a subcommand: its global options, the library, and how results and errors are
/// printed. Every subcommand's `run` goes through ``run(_:_:)``, so that errors are reported the same
/// way everywhere: a message on stderr saying what to do, and an exit code that tells its kind.
struct Session {
    let options: GlobalOptions
    /// Who the changes are recorded as made by.
    let actor: String
    /// The time of this invocation: what a create records, and the time of its commit.
    let now = Timestamp.now
    /// How times are printed for people (`--utc`).
    var times: TimeText { TimeText(utc: options.utc) }
    /// The library as this invocation opened it, for what is said after the command (a recovery).
    private let opened = Opened()

    private final class Opened {
        var library: Library?
        /// How many of the library's recoveries a `--json` result line has carried already.
        var recoveriesReported = 0
    }

    /// Runs `body`; a thrown error is printed (as JSON with `--json`) and becomes the exit code.
    static func run(_ options: GlobalOptions, actor: ActorOption? = nil, _ body: (Session) throws -> Void) throws {
        let session = Session(options: options, actor: ActorOption.resolve(actor?.actor))
        defer {
            session.tellRecoveries()
            if let library = session.opened.library { keptUntilExit.append(library) }
        }
        do {
            if actor != nil { try session.checkActor() }
            try body(session)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            let status = ExitStatus(for: error)
            session.report(error, status: status)
            throw ExitCode(status.rawValue)
        }
    }

    /// The libraries this process's commands opened, held until it exits rather than freed: the system
    /// closes their files and releases their locks then. Freeing one only closes its SQLite connections,
    /// which writes nothing (they neither checkpoint nor remove a WAL when they close, and every
    /// transaction is committed by then), at about a millisecond per command (GRDB removing its
    /// notification observers, then each connection's close); a replay's temporary folder is removed
    /// at exit all the same.
    nonisolated(unsafe) private static var keptUntilExit: [Library] = []

    /// Refuses, before any work, an actor the domain's rules refuse (one holding a control character).
    func checkActor() throws { _ = try Rules.actor(actor) }

    /// Opens the library, with the read models opened while the command line was parsed when they can
    /// be used as they are (``LibraryPrefetch``); a replay that an upgrade needs draws a progress bar.
    func library() throws -> Library {
        let bar = ProgressBar("rebuilding read models", quiet: options.quiet)
        defer { bar.finish() }
        let library = try openLibrary(progress: bar)
        try library.openReadModels()
        return library
    }

    /// Runs `change` on the library, handing it the read models being opened while the command line
    /// was parsed to take at their first use (``LibraryPrefetch``): a change takes the writer lock and
    /// catches up with the log meanwhile, rather than waiting for them first. A replay draws its
    /// progress bar until the change is done.
    func changing<Result>(_ change: (Library) throws -> Result) throws -> Result {
        let bar = ProgressBar("rebuilding read models", quiet: options.quiet)
        defer { bar.finish() }
        return try change(try openLibrary(progress: bar))
    }

    /// The library at the options' path, with what its read models go through reported through `bar`,
    /// handed the read models being opened ahead for it, if they are (taken at their first use).
    private func openLibrary(progress bar: ProgressBar) throws -> Library {
        let library = try Library(
            at: options.libraryPath, lockTimeout: options.lockWait, progress: bar.update,
            notice: { [json = options.json] notice in
                bar.finish()
                Self.warn(notice, json: json)
            })
        // Kept to say after the command what its writer set aside.
        opened.library = library
        if LibraryPrefetch.isOpening(path: options.libraryPath) {
            library.openReadModels(atFirstUse: { [path = options.libraryPath] in LibraryPrefetch.take(path: path) })
        }
        return library
    }

    /// Says on stderr what a writer set aside from the end of the log, whether the command then
    /// succeeded or not: the bytes are kept in quarantine/, and the user should know they are there.
    /// So too what stood in the place of a derived file, kept beside it.
    private func tellRecoveries() {
        for report in opened.library?.recovered ?? [] {
            let why = report.discardedAcknowledged == nil
                ? "the log ended in a commit that was never acknowledged (its command died while writing it); " : ""
            Terminal.printError("warning: \(why)\(report)")
        }
        for setAside in opened.library?.setAsideDerivedFiles ?? [] {
            Self.warn(kind: "derivedFileSetAside", message: "\(setAside)", json: options.json)
        }
    }

    /// The recoveries no result line has carried yet, for the next one printed with `--json`; nil when
    /// there are none, so that the field is absent.
    func unreportedRecoveries() -> [RecoveredRecord]? {
        let all = opened.library?.recovered ?? []
        defer { opened.recoveriesReported = all.count }
        let new = all.dropFirst(opened.recoveriesReported)
        return new.isEmpty ? nil : new.map(RecoveredRecord.init)
    }

    /// Opens the library without its read models, for what needs only the log and blobs (a backup, a
    /// compaction). Kept, as by ``library()``, to say what a writer set aside.
    func openLog() throws -> Library {
        let library = try Library(at: options.libraryPath, lockTimeout: options.lockWait)
        opened.library = library
        return library
    }

    /// Runs one command and prints what it did.
    func submit(_ submission: Submission) throws {
        try submit { _ in submission }
    }

    /// Runs the command `make` prepares from the library (a render, outside the lock), and prints what it did.
    func submit(_ make: (Library) throws -> Submission) throws {
        let report = try changing { library in try library.submit([try make(library)], actor: actor, clock: { now }) }
        warnIfBehind(report)
        for result in report.results {
            switch result {
            case .success(let outcome): printOutcome(outcome)
            case .failure(let failure): throw failure
            }
        }
    }

    func printOutcome(_ outcome: SubmitOutcome) {
        if options.json {
            var record = OutcomeRecord(outcome)
            record.recovered = unreportedRecoveries()
            printJSON(record)
        } else {
            Terminal.say(TerminalText(Self.words(outcome)))
            if let rendered = outcome.rendered {
                Terminal.say(TerminalText(Self.drawnSize(rendered) + (drawnOnArtwork(outcome) ? " Drawn on the podcast's artwork." : "")))
            }
            if options.verbose { Terminal.say(TerminalText("  " + OutcomeRecord(outcome).sentence)) }
            if outcome.events.contains(where: \.isDeletion) {
                Terminal.say("To bring it back: episodic undo \(outcome.commandID.description.prefix(8))")
            }
            for warning in outcome.warnings { Terminal.printError("warning: \(warning)") }
            for warning in outcome.thumbnailWarnings { Terminal.printError("warning: \(warning)") }
        }
    }

    /// Whether the thumbnail `outcome` rendered is drawn on its podcast's artwork (the background a new
    /// episode starts with when the podcast has no default background). False when that cannot be read.
    private func drawnOnArtwork(_ outcome: SubmitOutcome) -> Bool {
        guard let event = outcome.renderedEvent, let library = try? library(),
            let podcast = try? library.episodeDetail(event.episodeID)?.podcastID,
            let artwork = try? library.podcasts().first(where: { $0.id == podcast })?.artwork
        else { return false }
        return event.thumbnail.inputs.background.blob == artwork
    }

    /// `Text drawn at 112 pt (shrunk from 160 pt to fit).`
    static func drawnSize(_ thumbnail: RenderedThumbnail) -> String {
        let set = thumbnail.inputs.settings.fontSize, drawn = thumbnail.drawnFontSize
        return "Text drawn at \(EpisodeSheet.number(drawn)) pt" + (drawn < set ? " (shrunk from \(EpisodeSheet.number(set)) pt to fit)." : ".")
    }

    /// What a command did, as people say it: `Retitled episode "Show/3" from "A" to "B"`.
    static func words(_ outcome: SubmitOutcome) -> String {
        guard outcome.positions != nil else {
            return switch outcome.name {
            case "thumbnail.render": "Nothing to change: the thumbnail is up to date with its inputs."
            case "transcript.convert": "Nothing to change: the subtitles are up to date with the transcript."
            default: "Nothing to change: it is already so."
            }
        }
        let sentence = HistoryEntry.sentence(outcome.changes)
        return sentence.prefix(1).uppercased() + String(sentence.dropFirst())
    }

    /// A refused command of a script, reported once: under `--json` as its result line on stdout (one
    /// line per command tried), else on stderr, naming the script's line as a parse error does.
    func printRefusal(_ failure: SubmitFailure, line: Int) {
        let status = ExitStatus(for: failure)
        let message = named(Advice.message(for: failure, library: options.libraryPath, rebuilt: readModelsJustRebuilt), status: status)
        if options.json {
            printJSON(RefusalRecord(
                command: failure.name, index: failure.index, line: line, error: .init(kind: status.kind, message: message)))
        } else {
            Terminal.printError("error: line \(line) (\(failure.name)): \(message)")
        }
    }

    /// The refusal of one episode's work in `--outdated` work, named by `episode` (`Night Shift/3`).
    func printRefusal(_ failure: SubmitFailure, episode: String) {
        let status = ExitStatus(for: failure)
        let message = named(Advice.message(for: failure, library: options.libraryPath, rebuilt: readModelsJustRebuilt), status: status)
        if options.json {
            printJSON(BatchRefusalRecord(command: failure.name, episode: episode, error: .init(kind: status.kind, message: message)))
        } else {
            Terminal.printError("error: \(episode) (\(failure.name)): \(message)")
        }
    }

    func warnIfBehind(_ report: SubmitReport) { warnIfBehind(report.readModelError) }

    /// Says on stderr that a change was saved but the read models could not be updated after it.
    func warnIfBehind(_ readModelError: (any Error)?) {
        guard let error = readModelError else { return }
        if ReadModelFailure.isMalformed(error), readModelsJustRebuilt {
            // The write path rebuilt the damaged read model from the log, the saved commands included.
            Terminal.printError("warning: the commands were saved; the read models, found damaged as they were updated, "
                + "were rebuilt from the log with them.")
            return
        }
        let reason = ReadModelFailure.diskFull(error) != nil
            ? "the disk is full; free some space." : Advice.message(for: error, library: options.libraryPath)
        Terminal.printError("warning: the commands were saved, but the read models could not be updated: \(reason) "
            + "The next command will try again; `episodic projections rebuild --all` starts them afresh.")
    }

    /// Tells what happened to the read models the answers come from, on stderr: one `warning:` line, or
    /// with `--json` one object (`schemas/cli-output.md`).
    static func warn(_ notice: ReadModelNotice, json: Bool) {
        let message = "\(notice)" + (notice.remedy.map { " " + Advice.hint(for: $0) } ?? "")
        warn(kind: notice.kind, message: message, eventsBehind: notice.eventsBehind, json: json)
    }

    /// One warning of `kind`, as ``warn(_:json:)`` prints it.
    private static func warn(kind: String, message: String, eventsBehind: UInt64? = nil, json: Bool) {
        if json {
            let record = WarningRecord(warning: .init(kind: kind, message: message, eventsBehind: eventsBehind))
            Terminal.printJSONError(String(decoding: try! Self.encoder.encode(record), as: UTF8.self))
        } else {
            Terminal.printError("warning: " + message)
        }
    }

    /// Prints a table for people, fitted to the terminal, or `empty` when it has no rows.
    func printTable(_ table: Table, empty: TerminalText) {
        guard !table.rows.isEmpty else { return Terminal.say(empty) }
        for line in table.render(width: Terminal.width) { Terminal.say(line) }
    }

    /// Says what an export wrote to a file (`Wrote the SRT subtitles of "Show/3" to ep3.srt (4.2 KB).`),
    /// or gives its record under `--json`; nothing for standard output, where the content is the output.
    func printExport(_ record: ExportRecord, what: String) {
        guard record.file != "-" else { return }
        if options.json { return printJSON(record) }
        guard !options.quiet else { return }
        Terminal.say(TerminalText("Wrote \(what) to \(record.file) (\(Amount.size(UInt64(record.bytes))))."))
    }

    func printJSON(_ value: some Encodable) {
        print(String(decoding: try! Self.encoder.encode(value), as: UTF8.self))
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// A refusal's message with podcasts and episodes named as people know them. Only a refusal: the
    /// library is sound then, and naming reads it (damage is reported as it was found).
    private func named(_ message: String, status: ExitStatus) -> String {
        guard status == .refused, let library = opened.library else { return message }
        return library.namingIDs(in: message)
    }

    /// Whether the last thing the read models went through was a rebuild from the log: after a failed
    /// command, the one its failure set off (see `Advice.message(for:library:rebuilt:)`).
    private var readModelsJustRebuilt: Bool {
        guard case .rebuilt = opened.library?.notices.last else { return false }
        return true
    }

    /// Prints `error` on stderr, podcasts and episodes named as people know them.
    func report(_ error: any Error, status: ExitStatus) {
        let message = named(Advice.message(for: error, library: options.libraryPath, rebuilt: readModelsJustRebuilt), status: status)
        if options.json {
            let record = ErrorRecord(error: .init(kind: status.kind, message: message))
            Terminal.printJSONError(String(decoding: try! Self.encoder.encode(record), as: UTF8.self))
        } else if case UndoError.conflicts(let id, let conflicts) = error {
            // Each conflict quotes an actor from the log: escaped whole, so that it stays one line.
            Terminal.printError(line: "error: \(UndoError.conflictsHeadline(id))")
            for conflict in conflicts { Terminal.printError(line: "  - \(conflict.sentence(at: times.instant(conflict.time)))") }
            Terminal.printError(line: "\(Advice.undoConflicts)")
        } else {
            Terminal.printError("error: " + message)
        }
    }
}
