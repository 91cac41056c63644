import ArgumentParser
import Episodic
import Foundation

struct SubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit", abstract: "Run commands written as JSON Lines, for scripts.",
        discussion: """
            One JSON object per line; `command` names it (podcast.create, episode.create, transcript.import, ...) \
            and --list-commands shows each one's fields. Podcasts and episodes are named as on the command line. \
            The whole input is read and checked before anything runs; a summary ends the output.

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
              episodic submit --list-commands       every command, with its fields
            """)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var who: ActorOption
    @Argument(help: "The file of commands, or - (the default) for standard input.") var file = "-"
    @Flag(help: "All commands in one commit, or none.") var atomic = false
    @Flag(help: "Go on after a refused command (not with --atomic).") var keepGoing = false
    @Flag(help: "Sync each command to disk before the next one starts, rather than one fsync a group (slower).")
    var syncEach = false
    @Flag(help: "Print every command a script may hold, with its fields (optional ones in brackets), and run nothing.")
    var listCommands = false

    func validate() throws {
        if listCommands && (file != "-" || atomic || keepGoing || syncEach) {
            throw ValidationError("--list-commands runs nothing: give it alone (with --json for scripts).")
        }
        if atomic && keepGoing { throw ValidationError("--atomic and --keep-going cannot be given together: an atomic batch is all or nothing.") }
        if atomic && syncEach { throw ValidationError("--atomic and --sync-each cannot be given together: an atomic batch is one commit, synced once.") }
    }

    func run() throws {
        if listCommands { return Self.printCommands(json: global.json) }
        try Session.run(global, actor: who) { session in
            let text = String(decoding: try Files.read(file), as: UTF8.self)
            let lines = try Script.lines(text, now: session.now, readFile: Files.read)
            let submissions = lines.map(\.submission)
            guard !submissions.isEmpty else {
                if !global.json { Terminal.printError("The script holds no commands (only blank lines, or nothing): nothing was written.") }
                return
            }
            let library = try session.library()
            let started = ContinuousClock.now
            var summary = Summary()
            let bar = ProgressBar("submitting", quiet: global.quiet || submissions.count < 100)
            var firstFailure: SubmitFailure?
            // Results are printed group by group, as each group's commits become durable.
            func report(_ part: SubmitReport) {
                bar.finish()
                session.warnIfBehind(part)
                for result in part.results {
                    switch result {
                    case .success(let outcome):
                        summary.add(outcome)
                        session.printOutcome(outcome)
                    case .failure(let failure):
                        summary.refused += 1
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
            if !global.json && !global.quiet {
                Terminal.say(TerminalText(summary.sentence(of: submissions.count, seconds: (ContinuousClock.now - started).seconds)))
            }
            if let firstFailure { throw ExitCode(ExitStatus(for: firstFailure).rawValue) }
        }
    }

    /// Every command with its fields: `episode.create  podcast title [number] ...`, or one JSON object a command.
    static func printCommands(json: Bool) {
        let commands = Script.commands
        if json {
            for command in commands { Terminal.say(TerminalText(String(decoding: try! Session.encoder.encode(command), as: UTF8.self))) }
            return
        }
        let width = commands.map(\.name.count).max() ?? 0
        for command in commands {
            let fields = command.required + command.optional.map { "[\($0)]" }
            Terminal.say(TerminalText(command.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + fields.joined(separator: " ")))
        }
    }

    /// What a script's run came to, for its last line.
    private struct Summary {
        var done = 0
        var unchanged = 0
        var refused = 0
        var events = 0
        var positions: ClosedRange<LogPosition>?

        mutating func add(_ outcome: SubmitOutcome) {
            guard let range = outcome.positions else {
                unchanged += 1
                return
            }
            done += 1
            events += outcome.events.count
            positions = positions.map { min($0.lowerBound, range.lowerBound)...max($0.upperBound, range.upperBound) } ?? range
        }

        /// `Ran 3 of 3 commands: 4 events at positions 12–15, in 0.02 s.`
        func sentence(of total: Int, seconds: Double) -> String {
            var parts = ["Ran \(done) of \(Amount.count(total, "command"))"]
            let place = positions.map { $0.lowerBound == $0.upperBound ? " at position \($0.lowerBound.rawValue)" : " at positions \($0.lowerBound.rawValue)–\($0.upperBound.rawValue)" } ?? ""
            parts[0] += ": " + Amount.count(events, "event") + place
            if unchanged > 0 { parts.append("\(unchanged) changed nothing") }
            if refused > 0 { parts.append("\(refused) refused") }
            let skipped = total - done - unchanged - refused
            if skipped > 0 { parts.append("\(skipped) not run") }
            return parts.joined(separator: "; ") + ", in " + String(format: "%.2f", seconds) + " s."
        }
    }
}
