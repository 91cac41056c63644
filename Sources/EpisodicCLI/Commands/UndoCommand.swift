import ArgumentParser
import Episodic

struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo", abstract: "Undo a command by appending its compensating events; history is never rewritten.",
        discussion: """
            Undoing an undo is a redo. When later commands changed what the command changed, undo refuses and \
            lists them; --force undoes only what is still in effect and says what it left. Undoing a podcast's \
            deletion brings back the podcast and its episodes, with their content.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The command's id (`episodic log` shows them).") var command: CommandID?
    @Flag(help: "Undo the newest command still in effect.") var last = false
    @Option(name: .customLong("actor"), help: ArgumentHelp(
        "With --last: the newest such command of this actor. (The undo itself is recorded as $EPISODIC_ACTOR's, else your login name's.)",
        valueName: "name"))
    var lastActor: String?
    @Flag(help: "Undo what is still in effect, leaving what later commands changed again.") var force = false
    @Flag(help: "Show what would be appended, and append nothing.") var dryRun = false

    func validate() throws {
        if (command == nil) == !last { throw ValidationError("Give a command id, or --last.") }
        if lastActor != nil && !last { throw ValidationError("--actor goes with --last.") }
    }

    func run() throws {
        try Session.run(global) { session in
            if !dryRun { try session.checkActor() }
            let library = try session.library()
            let target: UndoTarget = command.map(UndoTarget.command) ?? .last(actor: lastActor)
            let (plan, outcome, readModelError) = try library.undo(
                target, actor: session.actor, force: force, dryRun: dryRun, clock: { session.now })
            session.warnIfBehind(readModelError)
            for skipped in plan.skipped {
                Terminal.printError(line: "left as it is: \(skipped)")
            }
            if global.json {
                var record = UndoRecord(plan: plan, outcome: outcome)
                record.recovered = session.unreportedRecoveries()
                return session.printJSON(record)
            }
            if let outcome {
                session.printOutcome(outcome)
            } else {
                Terminal.say("would undo \(plan.target) (\(plan.targetEvents.joined(separator: ", "))) with:")
                for event in plan.events { Terminal.say("  \(event.type) on \(event.stream)") }
            }
        }
    }
}

private struct UndoRecord: Encodable {
    var undoes: String
    var dryRun: Bool
    var events: [String]
    var skipped: [String]
    var outcome: OutcomeRecord?
    var recovered: [RecoveredRecord]?

    init(plan: UndoPlan, outcome: SubmitOutcome?) {
        undoes = plan.target.description
        dryRun = outcome == nil
        events = plan.events.map(\.type)
        skipped = plan.skipped.map(\.description)
        self.outcome = outcome.map(OutcomeRecord.init)
    }
}
