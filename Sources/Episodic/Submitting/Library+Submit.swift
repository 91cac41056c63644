import CoreValues
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
    /// Runs commands as the library's only writer, following DESIGN.md's write path: take the writer
    /// lock; catch the read models up; for each command, load its streams and facts, decide, store its
    /// blobs and append its events (one commit, fsynced); then project the new events.
    ///
    /// Each command is its own commit, unless `atomic`: then every command is decided first and all their
    /// events go in one commit, or, at the first refusal, nothing is written and the refusal is thrown
    /// as a ``SubmitFailure``. Otherwise a refusal stops the batch, unless `keepGoing`; a failure that is
    /// not a refusal (a damaged log, a full disk) always stops it. `progress` hears how many commands
    /// are done.
    public func submit(
        _ submissions: [Submission], actor: String, atomic: Bool = false, keepGoing: Bool = false,
        clock: () -> Timestamp = { Timestamp(Date())! }, progress: ((Int) -> Void)? = nil
    ) throws -> SubmitReport {
        let model = try readModel()
        return try write { writer in
            do {
                try model.catchUp(with: log)
            } catch where ReadModelFailure.isMalformed(error) {
                try model.recover(fromMalformed: error, log: log, lockHeld: true)
            }
            model.removeLeftovers()
            let workspace = Workspace(log: store, readModel: model)
            var results: [Result<SubmitOutcome, SubmitFailure>] = []
            var batch = PendingCommit(commandID: CommandID(UUID()))
            for (index, submission) in submissions.enumerated() {
                do {
                    let decision = try workspace.decide(submission)
                    let (events, blobs) = (decision.events, submission.blobs + decision.blobs)
                    if !atomic { batch = PendingCommit(commandID: CommandID(UUID())) }
                    let first = batch.add(events, blobs: blobs, versionsBefore: try workspace.apply(events))
                    workspace.hold(blobs)
                    var outcome = SubmitOutcome(
                        name: submission.name, commandID: batch.commandID, events: events, positions: nil, created: decision.created)
                    if atomic {
                        outcome.positions = events.isEmpty ? nil : LogPosition(UInt64(first))...LogPosition(UInt64(first + events.count - 1))
                    } else {
                        outcome.positions = try batch.append(to: writer, actor: actor, at: clock())
                    }
                    results.append(.success(outcome))
                } catch {
                    // A read model found malformed deciding is rebuilt now, for the next command.
                    if ReadModelFailure.isMalformed(error) { try? model.recover(fromMalformed: error, log: log, lockHeld: true) }
                    let failure = SubmitFailure(index: index, name: submission.name, error: error)
                    if atomic { throw failure }
                    results.append(.failure(failure))
                    if !keepGoing || !failure.isRefusal { break }
                }
                progress?(index + 1)
            }
            if atomic, let appended = try batch.append(to: writer, actor: actor, at: clock()) {
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
            var report = SubmitReport(results: results, readModelError: nil)
            do {
                try model.catchUp(with: log)
            } catch {
                report.readModelError = error
                if ReadModelFailure.isMalformed(error) { try? model.recover(fromMalformed: error, log: log, lockHeld: true) }
            }
            return report
        }
    }
}

extension SubmitFailure {
    /// A command the rules or the library refused (``ErrorKind/refused``), as opposed to damage, a busy
    /// library or a failure of the library itself: a batch with `keepGoing` goes on after a refusal only.
    public var isRefusal: Bool { kind == .refused }
}

/// The events of one commit being gathered: their blobs, and what each stream must hold before it.
private struct PendingCommit {
    let commandID: CommandID
    var events: [DomainEvent] = []
    var blobs: [[UInt8]] = []
    var expectations: [StreamID: ExpectedVersion] = [:]

    init(commandID: CommandID) { self.commandID = commandID }

    /// Adds a command's events, with the versions of their streams before them. Returns the place in
    /// the commit (from 1) of the first.
    mutating func add(_ new: [DomainEvent], blobs: [[UInt8]], versionsBefore versions: [StreamID: Int]) -> Int {
        let first = events.count + 1
        guard !new.isEmpty else { return first }
        for event in new {
            let stream = StreamID(domain: event.stream)
            if expectations[stream] == nil {
                let version = versions[stream] ?? 0
                expectations[stream] = version == 0 ? .noStream : .exactly(version)
            }
        }
        events += new
        self.blobs += blobs
        return first
    }

    /// Stores the blobs, then appends the events as one commit; nil when there are no events.
    func append(to writer: any LogAppender, actor: String, at time: Timestamp) throws -> ClosedRange<LogPosition>? {
        guard !events.isEmpty else { return nil }
        return try writer.append(Commit(
            events: events.map(ProposedEvent.init(domain:)), expectations: expectations, commandID: commandID,
            actor: actor, timestamp: time), blobs: blobs).positions
    }
}
