import ArgumentParser
import Episodic
import Foundation

struct SubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit", abstract: "Run commands written as JSON Lines, for scripts.",
        discussion: """
            One JSON object per line; `command` names it (podcast.create, episode.create, transcript.import, ...) \
            and schemas/commands/ gives each one's fields. Podcasts and episodes are named as on the command line. \
            The whole input is read and checked before anything runs.

            Each command is its own commit, and the first refused one stops the rest (--keep-going goes on). \
            Commands run in groups of up to 10,000 that share one fsync; each group's result lines are printed \
            once its commits are on disk, and other writers may take their turn between groups. \
            With --sync-each, each command is a group of its own, synced before the next one starts. \
            With --atomic, every command is decided first and all go in one commit, or none does. \
            A result line is printed per command done; a refused one is reported on standard error with its line \
            (with --json, as a result line like the others: one per command tried).

            Examples:
              episodic submit commands.jsonl
              episodic submit --atomic < commands.jsonl
              episodic submit commands.jsonl --keep-going --json
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var who: ActorOption
    @Argument(help: "The file of commands, or - (the default) for standard input.") var file = "-"
    @Flag(help: "All commands in one commit, or none.") var atomic = false
    @Flag(help: "Go on after a refused command (not with --atomic).") var keepGoing = false
    @Flag(help: "Sync each command to disk before the next one starts, rather than one fsync a group (slower).")
    var syncEach = false

    func validate() throws {
        if atomic && keepGoing { throw ValidationError("--atomic and --keep-going cannot be given together: an atomic batch is all or nothing.") }
        if atomic && syncEach { throw ValidationError("--atomic and --sync-each cannot be given together: an atomic batch is one commit, synced once.") }
    }

    func run() throws {
        try Session.run(global, actor: who) { session in
            let text = String(decoding: try Files.read(file), as: UTF8.self)
            let lines = try Script.lines(text, now: session.now, readFile: Files.read)
            let submissions = lines.map(\.submission)
            let library = try session.library()
            let bar = ProgressBar("submitting", quiet: global.quiet || submissions.count < 100)
            var firstFailure: SubmitFailure?
            // Results are printed group by group, as each group's commits become durable.
            func report(_ part: SubmitReport) {
                bar.finish()
                session.warnIfBehind(part)
                for result in part.results {
                    switch result {
                    case .success(let outcome):
                        session.printOutcome(outcome)
                    case .failure(let failure):
                        firstFailure = firstFailure ?? failure
                        session.printRefusal(failure, line: lines[failure.index].line)
                    }
                }
            }
            do {
                _ = try library.submit(
                    submissions, actor: session.actor, atomic: atomic, keepGoing: keepGoing, timingCreations: true,
                    progress: { bar.update(done: $0, of: submissions.count, unit: "commands") },
                    groupLimit: syncEach ? 1 : Library.submitGroupLimit, acknowledged: report)
            } catch let failure as SubmitFailure {
                bar.finish()
                session.printRefusal(failure, line: lines[failure.index].line)
                Terminal.printError("nothing was written: with --atomic, one refused command stops them all.")
                throw ExitCode(ExitStatus(for: failure).rawValue)
            }
            bar.finish()
            if let firstFailure { throw ExitCode(ExitStatus(for: firstFailure).rawValue) }
        }
    }
}
