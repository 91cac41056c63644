import ArgumentParser
import Episodic

struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Undo a command by appending its compensating events; history is never rewritten.",
        discussion: """
            `episodic redo` brings back what the newest undo undid; `undo --last` after a redo undoes that redo. When later commands changed what the command \
            changed, undo refuses and lists them; --force undoes only what is still in effect and says what it left. \
            Undoing a podcast's deletion brings back the podcast and its episodes, with their content.

            Examples:
              episodic undo --last               the newest command still in effect
              episodic undo cf1ae994             one by the start of its id (`episodic log`)
              episodic undo --last --by ana      ana's newest
              episodic undo --last --actor bo    recorded as bo's undo
              episodic undo cf1ae994 --dry-run   what it would append
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var who: ActorOption
    @Argument(help: "The command's id, or the start of it (`episodic log` shows them).") var command: String?
    @Flag(help: "Undo the newest command still in effect.") var last = false
    @Option(name: .customLong("by"), help: ArgumentHelp("With --last: the newest such command of this actor.", valueName: "name"))
    var lastActor: String?
    @Flag(help: "Undo what is still in effect, leaving what later commands changed again.") var force = false
    @Flag(help: "Show what would be appended, and append nothing.") var dryRun = false

    func validate() throws {
        if (command == nil) == !last { throw ValidationError("Give a command id, or --last.") }
        if lastActor != nil && !last { throw ValidationError("--by goes with --last.") }
    }

    func run() throws {
        // A dry run records no actor: one that could not be recorded is no reason to refuse it.
        try Session.run(global, actor: dryRun ? nil : who) { session in
            let library = try session.library()
            let target = try command.map { UndoTarget.command(try library.resolve(CommandReference.text($0))) }
            try Self.run(target ?? .last(actor: lastActor), force: force, dryRun: dryRun, library: library, session: session)
        }
    }

    /// Undoes or redoes, and says what happened: in words for people (with the log's details under
    /// `--verbose`), as a record under `--json`.
    static func run(_ target: UndoTarget, force: Bool, dryRun: Bool, library: Library, session: Session) throws {
        let (plan, outcome, readModelError) = try library.undo(
            target, actor: session.actor, force: force, dryRun: dryRun, clock: { session.now })
        session.warnIfBehind(readModelError)
        for skipped in plan.skipped {
            Terminal.printError(line: "left as it is: \(skipped.sentence(at: session.times.instant(skipped.time)))")
        }
        if session.options.json {
            var record = UndoRecord(plan: plan, outcome: outcome)
            record.recovered = session.unreportedRecoveries()
            return session.printJSON(record)
        }
        let described = plan.described
        let verb = if case .redo = target {
            dryRun ? "Would redo" : "Redid"
        } else {
            (dryRun ? "Would undo" : "Undid") + (plan.targetIsRedo ? " the redo" : "")
        }
        let by = "command \(described.commandID.description.prefix(8)) by \(described.actor), "
            + RelativeTime.text(described.time, now: session.now, times: session.times)
        Terminal.say(TerminalText("\(verb): \(described.sentence) (\(by))"))
        if let outcome, session.options.verbose {
            session.printOutcome(outcome)
        } else if outcome == nil {
            for event in plan.events { Terminal.say("  would append \(event.type) on \(event.stream)") }
        }
    }
}

struct RedoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo", abstract: "Bring back what the newest undo undid, as an editor does.",
        discussion: """
            A redo undoes that undo, as one more commit; run it again to walk forward through earlier undos. \
            As in an editor, any other change made since (by anyone) forgets the undos before it: redo then \
            refuses, and names the undo for `episodic redo <id> --force`. It refuses, as undo does, when later \
            commands changed the same fields, unless --force.

            Examples:
              episodic undo --last && episodic redo   changes nothing in the end
              episodic redo --dry-run                 what it would bring back
              episodic redo 3f2a1b4c --force          an older undo, past the changes since
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var who: ActorOption
    @Argument(help: "An undo's id, or the start of it (`episodic log`); without it, the newest undo since the last change.")
    var undo: String?
    @Flag(help: "Bring back what is still possible, leaving what later commands changed again; with an undo's id, even past changes made since.")
    var force = false
    @Flag(help: "Show what would be appended, and append nothing.") var dryRun = false

    func run() throws {
        // A dry run records no actor: one that could not be recorded is no reason to refuse it.
        try Session.run(global, actor: dryRun ? nil : who) { session in
            let library = try session.library()
            let undo = try undo.map { try library.resolve(CommandReference.text($0)) }
            try UndoCommand.run(.redo(undo: undo), force: force, dryRun: dryRun, library: library, session: session)
        }
    }
}

private struct UndoRecord: Encodable {
    var undoes: String
    var dryRun: Bool
    var events: [String]
    var skipped: [String]
    /// The command whose effect went (undo) or came back (redo), in words.
    var described: Described
    var outcome: OutcomeRecord?
    var recovered: [RecoveredRecord]?

    struct Described: Encodable {
        var commandID: String
        var actor: String
        var time: Timestamp
        var sentence: String
    }

    init(plan: UndoPlan, outcome: SubmitOutcome?) {
        undoes = plan.target.description
        dryRun = outcome == nil
        events = plan.events.map(\.type)
        skipped = plan.skipped.map(\.description)
        described = Described(
            commandID: plan.described.commandID.description, actor: plan.described.actor, time: plan.described.time,
            sentence: plan.described.sentence)
        self.outcome = outcome.map(OutcomeRecord.init)
    }
}
