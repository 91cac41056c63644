import CoreValues
import DomainTestSupport
import EventLog
import Foundation
import GRDB
import PodcastDomain
import Projections

/// A real library in a temporary folder, written the way the shell will write it: each accepted
/// command's events appended as one commit, then the read models caught up under the writer lock.
final class StudioLibrary {
    let folder: String
    let path: String
    let log: EventLog
    private(set) var domain = InMemoryLibrary()
    private var clock: Int64 = 1_795_000_000_000

    init() throws {
        var template = Array((NSTemporaryDirectory() + "projections-test-XXXXXX").utf8CString)
        folder = String(cString: mkdtemp(&template)!)
        path = folder + "/library"
        log = try EventLog.create(at: path)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func openReadModel(_ projectors: [any Projector] = Projectors.all, batchSize: Int = 100_000) throws -> ReadModel {
        try ReadModel(library: path, log: log, projectors: projectors, batchSize: batchSize)
    }

    /// Runs a command; an accepted one is appended as one commit. Returns the events, or nil if refused.
    @discardableResult
    func run(_ command: InMemoryLibrary.Command) throws -> [DomainEvent]? {
        guard case .success(let events) = domain.run(command) else { return nil }
        guard !events.isEmpty else { return events }
        clock += 1000
        try log.write { writer in
            try writer.append(Commit(
                events: events.map(ProposedEvent.init(domain:)), commandID: CommandID(UUID()), actor: "test",
                timestamp: Timestamp(rawValue: clock)!))
        }
        return events
    }

    /// Runs a command that must be accepted.
    @discardableResult
    func must(_ command: InMemoryLibrary.Command) throws -> [DomainEvent] {
        guard let events = try run(command) else { throw Refused(command: command.description) }
        return events
    }

    struct Refused: Error { let command: String }
}

extension ProposedEvent {
    init(domain event: DomainEvent) {
        self.init(
            stream: StreamID(rawValue: event.stream)!, type: event.type, schemaVersion: event.schemaVersion,
            payload: EventCoding.encode(event), blobs: event.blobs)
    }
}

extension ReadModel {
    /// Every row of every projector's tables, in primary-key order, as text: two read models with the
    /// same content give the same dump.
    func dump() throws -> [String: [String]] {
        try database.read { db in
            var tables: [String: [String]] = [:]
            for projector in projectors {
                for table in projector.tables {
                    tables[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id").map(\.description)
                }
            }
            return tables
        }
    }
}
