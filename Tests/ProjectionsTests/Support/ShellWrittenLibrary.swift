import CoreValues
import DomainTestSupport
import EventCodec
import EventLog
import Foundation
import GRDB
import PodcastDomain
import Projections
import TestSupport

/// A real library in a temporary folder, written the way the shell will write it: each accepted
/// command's blobs stored, its events appended as one commit, then the read models caught up under the
/// writer lock.
///
/// Tests and the random command pool name transcripts by made-up references (`TestContent.blob`). Like
/// the shell, the studio refers to a transcript by the real sha256 of its bytes, stored in the blob
/// store, so that the search projector can read it; later commands that name the made-up reference
/// (subtitles made from that transcript) get the real one.
final class ShellWrittenLibrary {
    let folder: String
    let path: String
    let log: EventLog
    private(set) var domain = InMemoryLibrary()
    private var clock = TestClock()
    /// Made-up transcript references, and the real ones they stand for.
    private var realReferences: [BlobRef: BlobRef] = [:]

    private let temporary = TemporaryFolder("projections-test")

    /// `name` is the library's folder, in a temporary folder.
    init(_ options: EventLog.Options = EventLog.Options(), name: String = "library") throws {
        folder = temporary.path
        path = folder + "/" + name
        log = try EventLog.create(at: path, options: options)
    }

    /// The library's read models; nil projectors are the standard ones, over this library's blobs.
    func openReadModel(_ projectors: [any Projector]? = nil, batchSize: Int = 100_000) throws -> ReadModel {
        try ReadModel(library: path, log: log, projectors: projectors, batchSize: batchSize)
    }

    /// Runs a command; an accepted one is appended as one commit, through `writer` when the caller
    /// holds the log's writer lock. Returns the events, or nil if refused.
    @discardableResult
    func run(_ command: InMemoryLibrary.Command, with writer: LogWriter? = nil) throws -> [DomainEvent]? {
        let command = withRealReferences(command)
        guard case .success(let events) = domain.run(command) else { return nil }
        guard !events.isEmpty else { return events }
        if case .episode(_, _, .importTranscript(let bytes, _, _)) = command { try log.blobs.put(bytes) }
        let commit = Commit(
            events: events.map(ProposedEvent.init(domain:)), commandID: CommandID(UUID()), actor: "test", timestamp: clock.tick())
        if let writer {
            _ = try writer.append(commit)
        } else {
            _ = try log.write { writer in try writer.append(commit) }
        }
        return events
    }

    /// Runs a command that must be accepted.
    @discardableResult
    func must(_ command: InMemoryLibrary.Command, with writer: LogWriter? = nil) throws -> [DomainEvent] {
        guard let events = try run(command, with: writer) else { throw Refused(command: command.description) }
        return events
    }

    struct Refused: Error { let command: String }

    /// `command` with its transcript references made real: the sha256 of the imported bytes.
    private func withRealReferences(_ command: InMemoryLibrary.Command) -> InMemoryLibrary.Command {
        guard case let .episode(id, podcast, episodeCommand) = command else { return command }
        switch episodeCommand {
        case let .importTranscript(bytes, ref, strict):
            let real = BlobStore.reference(for: bytes)
            realReferences[ref] = real
            return .episode(id, podcast: podcast, .importTranscript(bytes: bytes, ref: real, strict: strict))
        case .recordSubtitles(var subtitles):
            subtitles.transcript = realReferences[subtitles.transcript] ?? subtitles.transcript
            return .episode(id, podcast: podcast, .recordSubtitles(subtitles))
        default:
            return command
        }
    }
}


extension ReadModel {
    /// Every row of every table that a replay gives back (each projector's ``Projector/tables``, as `log
    /// verify` compares them), in id order, as text: two read models with the same content give the same
    /// dump. The tables of every projector of a library, not only this instance's (a read model opened
    /// with fewer projectors keeps the others' files).
    func dump() throws -> [String: [String]] {
        try database.read(Self.dump)
    }

    static func dump(_ db: Database) throws -> [String: [String]] {
        let names = Projectors.standard(blobs: BlobReader(BlobStore(directory: "/"))).flatMap(\.tables)
        var tables: [String: [String]] = [:]
        for table in names where try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM pragma_table_list WHERE name = ?)", arguments: [table])! {
            tables[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id").map(\.description)
        }
        return tables
    }
}
