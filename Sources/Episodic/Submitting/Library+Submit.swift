import CoreValues
import EventCodec
import EventLog
import Foundation
import PodcastDomain
import Projections
import ThumbnailRenderer

/// What a batch of commands came to.
public struct SubmitReport: Sendable {
    /// One entry per command tried, in order: what it did, or why it was refused. A batch that stops
    /// at a refusal has no entries for the commands after it.
    public var results: [Result<SubmitOutcome, SubmitFailure>]
    /// Set when every accepted command was appended but the read models could not be brought up to date;
    /// the next command or query catches them up.
    public var readModelError: (any Error)?
}

extension Library {
    /// Runs commands on the write path every change takes (<doc:TheWritePath>): for each command, load
    /// its streams and facts and decide; store its blobs and append its events (one commit), at once
    /// or, where the writer takes commits decided ahead, all the group's together at its end; then sync
    /// the commits with one fsync (group commit: none is reported before it is durable), and project
    /// them.
    ///
    /// Each command is its own commit, unless `atomic`: then every command is decided first and all their
    /// events go in one commit, or, at the first refusal, nothing is written and the refusal is thrown
    /// as a ``SubmitFailure``. Otherwise a refusal stops the batch, unless `keepGoing`; a failure that is
    /// not a refusal (a damaged log, a full disk) always stops it. `progress` hears how many commands
    /// are done.
    ///
    /// Without `atomic`, commands run in groups of `groupLimit`, each in a writer section of its own,
    /// which syncs and projects the group's commits and then lets the lock go: other writers take their
    /// turn between groups rather than wait for the whole batch. `acknowledged` hears each group's
    /// results once its commits are durable.
    ///
    /// Each commit is stamped with `clock`'s time, kept strictly increasing within the batch. With
    /// `timingCreations`, a creation is dated by that time too, rather than by the `at` it was given:
    /// a script's lines then create things in the order they ran, as a list sorted newest first shows.
    public func submit(
        _ submissions: [Submission], actor: String, atomic: Bool = false, keepGoing: Bool = false,
        timingCreations: Bool = false, clock: () -> Timestamp = { .now }, progress: ((Int) -> Void)? = nil,
        groupLimit: Int = submitGroupLimit, acknowledged: ((SubmitReport) -> Void)? = nil
    ) throws -> SubmitReport {
        var last: Timestamp?
        // Never the same millisecond twice, nor earlier: "newest first" has one answer.
        func tick() -> Timestamp {
            let now = clock()
            let time = last.flatMap { now > $0 ? nil : Timestamp(rawValue: $0.rawValue + 1) } ?? now
            last = time
            return time
        }
        var report = SubmitReport(results: [])
        var next = 0
        var stopped = false
        var previous: (workspace: Workspace, head: LogPosition)?
        // The slow work on the inputs is done before the lock is taken; work a command finds missing
        // under the lock is made after the lock is let go, and the command decided again.
        let prepared = PreparedInputs(submissions, library: self)
        var missing: (index: Int, work: PreparedInputs.Work)?
        var attempts: [Int: Int] = [:]
        repeat {
            if let (index, work) = missing {
                missing = nil
                attempts[index, default: 0] += 1
                do {
                    guard attempts[index]! <= Self.inputWorkAttempts else { throw LibraryError.inputKeptChanging(submissions[index].name) }
                    try prepared.make(work, library: self)
                } catch {
                    let failure = SubmitFailure(index: index, name: submissions[index].name, error: error)
                    if atomic { throw failure }
                    let part = SubmitReport(results: [.failure(failure)])
                    acknowledged?(part)
                    report.results += part.results
                    break
                }
            }
            let first = next
            let (group, readModelError) = try runWritePath(continuing: previous) { writer, workspace in
                next = first
                stopped = false
                let end = atomic ? submissions.count : min(submissions.count, first + max(groupLimit, 1))
                defer { previous = (workspace, store.head) }
                // Transcripts and images the group carries are written while earlier commands are decided.
                writer.stage(submissions[first..<end].flatMap(\.blobs))
                var results: [Result<SubmitOutcome, SubmitFailure>] = []
                var batch = PendingCommit(commandID: CommandID(UUID()))
                // Where the writer takes commits decided ahead, each command's waits for the group's end.
                let appendsAtEnd = !atomic && writer.takesCommitsDecidedAhead
                var decidedAhead = CommitsDecidedAhead()
                /// Appends the commits decided ahead, giving their results their positions. False when
                /// one failed: its result is then that failure, the results after it are dropped (they
                /// were decided on its events), the streams are forgotten, and the batch stops.
                func appendDecidedAhead() -> Bool {
                    let (appended, failed) = decidedAhead.append(to: writer)
                    for (result, positions) in appended {
                        results[result] = results[result].map { outcome in
                            var outcome = outcome
                            outcome.positions = positions
                            return outcome
                        }
                    }
                    guard let failed else { return true }
                    results.replaceSubrange(failed.result..., with: [.failure(failed.failure)])
                    workspace.forgetStreams()
                    stopped = true
                    return false
                }
                commands: while next < end {
                    let index = next
                    next += 1
                    var attempt = 1
                    let time = tick()
                    let submission = timingCreations ? submissions[index].created(at: time) : submissions[index]
                    while true {
                        // Set while the command's events are applied to the workspace but not appended.
                        var applied = false
                        do {
                            if !atomic { workspace.startReading() }
                            let decision = try workspace.decide(submission, prepared: prepared)
                            let (events, blobs) = (decision.events, submission.blobs + decision.blobs)
                            if !atomic { batch = PendingCommit(commandID: CommandID(UUID())) }
                            let before = try workspace.statesBefore(events)
                            let place = batch.add(events, blobs: blobs, versionsBefore: try workspace.apply(events))
                            applied = true
                            workspace.hold(blobs)
                            var outcome = SubmitOutcome(
                                name: submission.name, commandID: batch.commandID, events: events, positions: nil, created: decision.created,
                                warnings: decision.warnings, thumbnailWarnings: decision.thumbnailWarnings)
                            if atomic {
                                outcome.positions = events.isEmpty ? nil : LogPosition(UInt64(place))...LogPosition(UInt64(place + events.count - 1))
                            } else if !appendsAtEnd {
                                outcome.positions = try batch.append(
                                    to: writer, actor: actor, at: time, read: workspace.versionsRead, synced: false)
                                applied = false
                            }
                            outcome.changes = try workspace.changes(of: events, from: before)
                            if appendsAtEnd,
                               let commit = batch.toAppend(actor: actor, at: time, read: workspace.versionsRead) {
                                decidedAhead.add(commit, result: results.count, index: index, name: submission.name)
                            }
                            results.append(.success(outcome))
                        } catch let needed as InputWorkNeeded {
                            // Nothing of this command is applied. An atomic batch, which has appended
                            // nothing, is decided again whole; otherwise the group ends before it.
                            missing = (index, needed.work)
                            next = atomic ? first : index
                            break commands
                        } catch is LogStoreRace where attempt < Self.decisionAttempts {
                            // A teammate's commit came first, and earlier commands of the group are already
                            // appended: decide this one again on the copy that now holds theirs.
                            Self.pauseAfterRace(attempt)
                            attempt += 1
                            try workspace.readModel.catchUp(with: log)
                            workspace.forgetStreams()
                            continue
                        } catch {
                            let error = (error as? LogStoreRace)?.refusal ?? error
                            // Events applied but never appended must not stand in the states the next
                            // commands decide on, nor in those the projection starts from; the streams
                            // are read again, once the commands decided before are in the log.
                            if applied && !atomic {
                                guard appendDecidedAhead() else { break commands }
                                workspace.forgetStreams()
                            }
                            // A read model found malformed deciding is rebuilt now, for the next command.
                            recoverIfMalformed(error, workspace.readModel)
                            let failure = SubmitFailure(index: index, name: submission.name, error: error)
                            if atomic { throw failure }
                            results.append(.failure(failure))
                            if !keepGoing || !failure.isRefusal {
                                stopped = true
                                break commands
                            }
                        }
                        break
                    }
                    progress?(index + 1)
                }
                _ = appendDecidedAhead()
                if atomic, missing != nil { return [Result<SubmitOutcome, SubmitFailure>]() }
                if atomic, let appended = try batch.append(to: writer, actor: actor, at: tick(), read: workspace.versionsRead) {
                    // Positions were counted from the start of the commit; now the commit has its place.
                    let offset = appended.lowerBound.rawValue - 1
                    results = results.map { result in
                        result.map { outcome in
                            var outcome = outcome
                            outcome.positions = outcome.positions.map {
                                LogPosition($0.lowerBound.rawValue + offset)...LogPosition($0.upperBound.rawValue + offset)
                            }
                            return outcome
                        }
                    }
                }
                return results
            }
            if atomic, missing != nil {
                // Nothing was appended, and the workspace holds the batch's decisions: it starts afresh.
                previous = nil
                continue
            }
            let part = SubmitReport(results: group, readModelError: readModelError)
            acknowledged?(part)
            report.results += group
            report.readModelError = readModelError ?? report.readModelError
        } while missing != nil || (!stopped && next < submissions.count)
        return report
    }

    /// How many times a command's input work is made after the lock when the input keeps changing
    /// under it (another writer's commits) before the command is refused as busy.
    static let inputWorkAttempts = 3

    /// The most commands of a batch decided in one writer section, before it syncs them and lets the
    /// lock go. Each section projects its group, and projecting folds every entity the group touched
    /// from its stream: groups of 1,000 made a 20,000-command script three times slower than one
    /// section. 10,000 commands take about 3 s at full speed, well within a waiting writer's timeout.
    public static let submitGroupLimit = 10_000
}

extension SubmitFailure {
    /// A command the rules or the library refused (`ErrorKind.refused`), as opposed to damage, a busy
    /// library or a failure of the library itself: a batch with `keepGoing` goes on after a refusal only.
    public var isRefusal: Bool { kind == .refused }
}
