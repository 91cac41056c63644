import CoreValues

/// One commit as the log holds it: its events with their positions and versions, and whether its first
/// line carries the hash of the commit before (every commit since log format 2). What a shared log's
/// server hands out and what a push sends, so that a copy written from it has the same bytes.
public struct StoredCommit: Sendable, Equatable {
    /// In order, at consecutive positions; every event shares the commit's command, actor, time and
    /// `undoes`.
    public var events: [RecordedEvent]
    /// Whether the first line carries `prev` (false only for commits written before the chain).
    public var chained: Bool

    public init(events: [RecordedEvent], chained: Bool = true) {
        precondition(!events.isEmpty, "a commit has at least one event")
        self.events = events
        self.chained = chained
    }

    /// `commit` as a log stores it from `first` on, each stream continuing from the version
    /// `versionsBefore` gives it.
    public init(_ commit: Commit, at first: LogPosition, versionsBefore: (StreamID) throws -> Int) rethrows {
        var versions: [StreamID: Int] = [:]
        var events: [RecordedEvent] = []
        for (offset, event) in commit.events.enumerated() {
            let version = try (versions[event.stream] ?? versionsBefore(event.stream)) + 1
            versions[event.stream] = version
            events.append(RecordedEvent(
                position: LogPosition(first.rawValue + UInt64(offset)), stream: event.stream, streamVersion: version, type: event.type,
                schemaVersion: event.schemaVersion, timestamp: commit.timestamp, actor: commit.actor, commandID: commit.commandID,
                undoes: commit.undoes, blobs: event.blobs, payload: event.payload))
        }
        self.init(events: events)
    }

    public var positions: ClosedRange<LogPosition> { events[0].position...events[events.count - 1].position }

    /// The commit to append to reproduce this one: its events, and as expectations each stream's
    /// version before it, so that appending it anywhere else fails rather than renumbering a stream.
    public var commit: Commit {
        var expectations: [StreamID: ExpectedVersion] = [:]
        for event in events where expectations[event.stream] == nil {
            let before = event.streamVersion - 1
            expectations[event.stream] = ExpectedVersion(after: before)
        }
        let first = events[0]
        return Commit(
            events: events.map { ProposedEvent(stream: $0.stream, type: $0.type, schemaVersion: $0.schemaVersion, payload: $0.payload, blobs: $0.blobs) },
            expectations: expectations, commandID: first.commandID, actor: first.actor, timestamp: first.timestamp,
            undoes: first.undoes)
    }
}

extension EventLog {
    /// Calls `body` with each commit from the one that starts at `start` through the head, in order.
    /// `start` must be where a commit begins (1, or one past the end of an earlier commit).
    public func readCommits(from start: LogPosition, _ body: (StoredCommit) throws -> Void) throws {
        var walker = CommitWalker()
        var events: [RecordedEvent] = []
        var chained = false
        try read(from: start) { envelope in
            let started = walker.started
            _ = walker.add(envelope)
            if walker.started != started {
                if !events.isEmpty { try body(StoredCommit(events: events, chained: chained)) }
                events.removeAll(keepingCapacity: true)
                chained = envelope.previousBytes != nil
            }
            events.append(RecordedEvent(envelope))
        }
        if !events.isEmpty { try body(StoredCommit(events: events, chained: chained)) }
    }

    /// The hash of the log's last commit (the library's genesis hash for an empty log), as 64 lowercase
    /// hex digits: it covers every byte of the log before it, so two logs with the same last hash hold
    /// the same commits.
    public func lastCommitHash() throws -> String {
        try previousForNextCommit().hex
    }
}

extension LogWriter {
    /// The library's id, where its chain starts; a library written by an older build gets one, and
    /// this build's format, first. For a push, which sends the chain to a server.
    public func prepareChain() throws(EventLogError) -> LibraryID {
        precondition(log.isWriting, "a LogWriter is valid only inside EventLog.write")
        try log.upgradeFormatIfNeeded()
        if let id = log.layout.readID() { return id }
        let id = LibraryID()
        try log.layout.writeID(id)
        return id
    }

    /// Appends copies of `commits`, which must continue this log: each starts at the position after the
    /// head, and its streams stand at the versions its events say they follow. The copies are written
    /// as the original commits were, byte for byte when the logs agree up to here, and synced once, after
    /// the last. Throws before writing a commit that does not continue the log.
    public func copy(_ commits: [StoredCommit]) throws(EventLogError) {
        precondition(log.isWriting, "a LogWriter is valid only inside EventLog.write")
        guard !commits.isEmpty else { return }
        do throws(EventLogError) {
            for stored in commits {
                guard stored.events[0].position == log.head.next else {
                    throw .invalidEvent(
                        index: 0, reason: "the copied commit starts at position \(stored.events[0].position), not \(log.head.next)")
                }
                _ = try log.append(stored.commit, durably: false, chained: stored.chained)
            }
        } catch {
            try? log.syncAppended()
            throw error
        }
        try log.syncAppended()
    }
}


/// The chain's hash computed from commits rather than from a log's files: for checking that a shared
/// log's server holds exactly what a library's own log holds, without writing a copy.
public struct ChainDigest {
    private var previous: CommitHash
    private var lines: [UInt8] = []

    /// Starts where the chain of the library `id` starts.
    public init(libraryID id: LibraryID) { previous = .genesis(of: id) }

    /// Starts after the commit whose hash is `hex` (64 lowercase hex digits); nil for anything else.
    public init?(after hex: String) {
        guard let hash = Array(hex.utf8).withUnsafeBytes(CommitHash.init(hex:)) else { return nil }
        previous = hash
    }

    /// Adds the next commit.
    public mutating func add(_ stored: StoredCommit) {
        let commit = stored.commit
        let encoder = EnvelopeEncoder(commit: commit)
        lines.removeAll(keepingCapacity: true)
        for (i, event) in commit.events.enumerated() {
            let recorded = stored.events[i]
            encoder.appendLine(
                for: event, position: recorded.position, version: recorded.streamVersion,
                previous: i == 0 && stored.chained ? previous : nil, to: &lines)
        }
        previous = lines.withUnsafeBytes(CommitHash.of)
    }

    /// The hash of the last commit added (the genesis hash before any), as 64 lowercase hex digits.
    public var hex: String { previous.hex }
}
