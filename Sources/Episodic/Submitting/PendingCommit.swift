import CoreValues
import EventLog
import EventCodec
import PodcastDomain

/// The events of one commit being gathered: their blobs, and what each stream must hold before it.
struct PendingCommit {
    let commandID: CommandID
    /// The command an undo (or a redo) compensates for, recorded in every envelope of the commit.
    var undoes: CommandID?
    var events: [DomainEvent] = []
    var blobs: [[UInt8]] = []
    var expectations: [StreamID: ExpectedVersion] = [:]

    init(commandID: CommandID, undoes: CommandID? = nil) {
        self.commandID = commandID
        self.undoes = undoes
    }

    /// Adds a command's events, with the versions of their streams before them. Returns the place in
    /// the commit (from 1) of the first.
    mutating func add(_ new: [DomainEvent], blobs: [[UInt8]], versionsBefore versions: [StreamID: Int]) -> Int {
        let first = events.count + 1
        guard !new.isEmpty else { return first }
        for event in new {
            let stream = StreamID(domain: event.stream)
            if expectations[stream] == nil {
                let version = versions[stream] ?? 0
                expectations[stream] = ExpectedVersion(after: version)
            }
        }
        events += new
        self.blobs += blobs
        return first
    }

    /// The events as one commit, with their blobs and the claims they make (which only a shared log
    /// takes); nil when there are no events. `read` is the version of every stream the decision read:
    /// those the commit does not write are expected at that version too, so that on a shared log a
    /// teammate's change to one (a podcast deleted while an episode is added to it) makes the commit
    /// decide again rather than land on what it did not see.
    func toAppend(actor: String, at time: Timestamp, read: [StreamID: Int]) -> CommitToAppend? {
        guard !events.isEmpty else { return nil }
        var expectations = self.expectations
        for (stream, version) in read where expectations[stream] == nil {
            expectations[stream] = ExpectedVersion(after: version)
        }
        let commit = Commit(
            events: events.map(ProposedEvent.init(domain:)), expectations: expectations, commandID: commandID,
            actor: actor, timestamp: time, undoes: undoes)
        return CommitToAppend(commit, blobs: blobs, claims: ClaimChange.changes(for: events))
    }

    /// Stores the blobs, then appends the commit (``toAppend(actor:at:read:)``); nil when there are no
    /// events.
    ///
    /// `synced: false` is group commit (``LogAppender/appendUnsynced(_:blobs:claims:)``): the caller
    /// syncs before it reports the commit done.
    func append(
        to writer: any LogAppender, actor: String, at time: Timestamp, read: [StreamID: Int], synced: Bool = true
    ) throws -> ClosedRange<LogPosition>? {
        guard let next = toAppend(actor: actor, at: time, read: read) else { return nil }
        return try (synced
            ? writer.append(next.commit, blobs: next.blobs, claims: next.claims)
            : writer.appendUnsynced(next.commit, blobs: next.blobs, claims: next.claims)).positions
    }
}
