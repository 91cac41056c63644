import ArgumentParser
import Episodic
import Foundation

/// What a command that works on one episode takes to work on every episode that needs it, across a
/// podcast or all of them: `--outdated` with `--podcast` or `--all`, and `--atomic`.
struct BatchOptions: ParsableArguments {
    @Flag(help: "Every episode that needs it, in --podcast or in --all podcasts, instead of one.")
    var outdated = false

    @Option(help: "With --outdated: the podcast whose episodes to take.", completion: .podcastNames)
    var podcast: String?

    @Flag(help: "With --outdated: the episodes of every podcast.")
    var all = false

    @Flag(help: "With --outdated: one commit for every episode, or nothing at all if one is refused.")
    var atomic = false

    /// Either one episode, or `--outdated` with exactly one of `--podcast` and `--all`.
    func validate(episode: String?) throws {
        if outdated {
            if episode != nil { throw ValidationError("Give an episode, or --outdated for every episode that needs it, not both.") }
            if (podcast == nil) == !all { throw ValidationError("--outdated needs --podcast <podcast> or --all: which episodes to take.") }
        } else {
            if episode == nil { throw ValidationError("Missing expected argument '<episode>' (or --outdated with --podcast or --all).") }
            if podcast != nil || all || atomic { throw ValidationError("--podcast, --all and --atomic go with --outdated.") }
        }
    }
}

/// Work done on every episode a ``BatchSelection`` takes: each made outside the lock (`make`), then
/// submitted in groups, one commit an episode (each undoable) or one for all with `--atomic`; a line per
/// episode as it is done, progress on a terminal, and a summary.
struct BatchWork {
    let task: EpisodeTask
    /// The command each episode's work is, for refusals: `thumbnail.render`.
    let command: String
    let options: BatchOptions
    /// What the work makes, for the summary: `thumbnail`, `subtitles`.
    let noun: (Int) -> String
    /// The verb of the summary: `Rendered`, `Converted`.
    let verb: String
    /// What an episode passed over needs first, with the command that does it.
    let blockedAdvice: String
    /// The submission of one episode's work; slow work (a render) is done here, without the lock.
    let make: (Library, EpisodeID) throws -> Submission

    /// Episodes made and submitted at a time: a group's renders are held in memory until they are written.
    static let groupSize = 16

    func run(_ session: Session) throws {
        let library = try session.library()
        let podcast = try options.podcast.map { try library.resolve(PodcastReference.text($0)) }
        let selection = try library.batch(task, in: podcast)
        let started = ContinuousClock.now
        let total = selection.episodes.count
        let bar = ProgressBar(verb.lowercased(), quiet: session.options.quiet || session.options.json || total < 2)
        var done = 0, unchanged = 0, events = 0
        var firstFailure: SubmitFailure?

        func report(_ part: SubmitReport, of episodes: ArraySlice<EpisodeTodo>) {
            bar.finish()
            session.warnIfBehind(part)
            for result in part.results {
                switch result {
                case .success(let outcome):
                    if outcome.positions == nil { unchanged += 1 } else { done += 1 }
                    events += outcome.events.count
                    session.printOutcome(outcome)
                case .failure(let failure):
                    firstFailure = firstFailure ?? failure
                    printFailure(failure, of: episodes[episodes.startIndex + failure.index], session: session)
                }
            }
        }

        /// Each episode's submission, made outside the lock; one that cannot be made is reported and left out.
        func submissions(_ episodes: ArraySlice<EpisodeTodo>) -> [(todo: EpisodeTodo, submission: Submission)] {
            episodes.enumerated().compactMap { offset, todo in
                bar.update(done: episodes.startIndex + offset, of: total, unit: noun(2))
                do {
                    return (todo, try make(library, todo.episode.id))
                } catch {
                    let failure = SubmitFailure(index: offset, name: command, error: error)
                    firstFailure = firstFailure ?? failure
                    printFailure(failure, of: todo, session: session)
                    return nil
                }
            }
        }

        if options.atomic {
            let made = submissions(selection.episodes[...])
            if let firstFailure {
                Terminal.printError("nothing was written: with --atomic, one episode refused stops them all.")
                throw ExitCode(ExitStatus(for: firstFailure).rawValue)
            }
            do {
                report(try library.submit(made.map(\.submission), actor: session.actor, atomic: true), of: ArraySlice(made.map(\.todo)))
            } catch let failure as SubmitFailure {
                bar.finish()
                printFailure(failure, of: made[failure.index].todo, session: session)
                Terminal.printError("nothing was written: with --atomic, one episode refused stops them all.")
                throw ExitCode(ExitStatus(for: failure).rawValue)
            }
        } else {
            for start in stride(from: 0, to: total, by: Self.groupSize) {
                let made = submissions(selection.episodes[start..<min(start + Self.groupSize, total)])
                guard !made.isEmpty else { continue }
                let part = try library.submit(made.map(\.submission), actor: session.actor, keepGoing: true)
                report(part, of: ArraySlice(made.map(\.todo)))
            }
        }
        bar.finish()
        if !session.options.json && !session.options.quiet {
            Terminal.say(TerminalText(summary(done: done, unchanged: unchanged, events: events, of: total, blocked: selection.blocked.count,
                seconds: (ContinuousClock.now - started).seconds)))
        }
        if let firstFailure { throw ExitCode(ExitStatus(for: firstFailure).rawValue) }
    }

    /// `error: Night Shift/3 (thumbnail.render): ...`
    private func printFailure(_ failure: SubmitFailure, of todo: EpisodeTodo, session: Session) {
        session.printRefusal(failure, episode: "\(todo.podcastName)/\(todo.episode.number)")
    }

    /// `Rendered 12 of 12 thumbnails, in 3.20 s; 2 episodes need a background first: ...`
    func summary(done: Int, unchanged: Int, events: Int, of total: Int, blocked: Int, seconds: Double) -> String {
        var parts: [String] = []
        if total == 0 {
            parts.append("Nothing to do: no episode \(options.all ? "of any podcast " : "of \(options.podcast ?? "")") needs it")
        } else {
            parts.append("\(verb) \(done) of \(total) \(noun(total)) (\(Amount.count(events, "event")))")
            if unchanged > 0 { parts.append("\(unchanged) changed nothing") }
            let refused = total - done - unchanged
            if refused > 0 { parts.append("\(refused) refused") }
        }
        if blocked > 0 { parts.append("\(Amount.count(blocked, "episode")) \(blocked == 1 ? "needs" : "need") \(blockedAdvice)") }
        return parts.joined(separator: "; ") + (total == 0 ? "." : ", in " + String(format: "%.2f", seconds) + " s.")
    }
}
