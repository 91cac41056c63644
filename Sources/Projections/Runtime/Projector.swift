import EventLog
import Foundation
import GRDB

/// A read model built from the log: a name, a schema version, its DDL, and how to write the rows of
/// the entities a run of events touched.
///
/// Projectors never see events one at a time: the runtime folds a run of events into the final state
/// of each entity it touched (``EntityChanges``), and the projector writes each final row once.
/// A change to a projector's tables is a new schema version; the runtime then rebuilds it by replay.
public protocol Projector: Sendable {
    /// Names the projector in the checkpoint table, its DDL file, `schemas/projections/<name>.sql`, and
    /// its file of each generation, `read/NNNNNN-<name>.sqlite`: lowercase letters and dashes.
    var name: String { get }
    var schemaVersion: Int { get }
    /// The tables a replay of the log gives back row for row, each with an `id` column: `log verify`
    /// compares them with a replay's.
    var tables: [String] { get }
    /// Writes the final rows of every entity in `changes`, inside the caller's transaction.
    func write(_ changes: EntityChanges, to db: Database) throws
    /// Starts the part of writing `changes` that needs no database (making JSON, say) on other cores,
    /// and returns what writes the rows. The runtime starts every projector of a transaction before
    /// the first one writes, so that one prepares while another writes. By default nothing is
    /// prepared: the write is ``write(_:to:)``.
    func prepareWrite(_ changes: EntityChanges) -> PreparedWrite
    /// Makes a connection ready for the projector's tables: the SQL functions they need (search reads
    /// transcripts through one). Called on every connection that attaches its file. By default nothing.
    func prepare(_ db: Database) throws
    /// Called on the connection of a replay from the start (a rebuild, a check's replay) before its
    /// first write: the projector may leave work for ``finishReplay(_:)`` that is cheaper done once
    /// than at every change (search indexes each episode once, at the end). Its rows are not read
    /// until then. By default nothing.
    func beginReplay(_ db: Database) throws
    /// Called when a replay begun by ``beginReplay(_:)`` has written every event asked for, before
    /// its rows are read; later writes on the connection are those of an ordinary catch-up. By default
    /// nothing.
    func finishReplay(_ db: Database) throws
}

/// A projector's write of one transaction's changes, begun by ``Projector/prepareWrite(_:)``: called
/// once, inside the transaction, on the thread that prepared it.
public struct PreparedWrite {
    let write: (Database) throws -> Void

    public init(_ write: @escaping (Database) throws -> Void) {
        self.write = write
    }
}

extension Projector {
    public func prepareWrite(_ changes: EntityChanges) -> PreparedWrite {
        PreparedWrite { db in try write(changes, to: db) }
    }

    public func prepare(_ db: Database) throws {}

    public func beginReplay(_ db: Database) throws {}

    public func finishReplay(_ db: Database) throws {}
}

extension Projector {
    /// The projector's DDL, from `schemas/projections/<name>.sql`.
    func schema() throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: "sql", subdirectory: "Schemas") else {
            throw ProjectionError.missingSchema(name)
        }
        return try String(contentsOf: url, encoding: .utf8)
    }
}

/// Content by hash, checked against it, for a projector that reads blobs. Safe to call from any thread.
public struct BlobReader: Sendable {
    public let read: @Sendable (BlobRef) throws -> [UInt8]

    public init(_ read: @escaping @Sendable (BlobRef) throws -> [UInt8]) { self.read = read }

    /// A library's own blob store.
    public init(_ store: BlobStore) { read = { ref in try store.get(ref) } }
}

/// The projectors a library keeps, in the order they are written.
public enum Projectors {
    /// Search reads transcripts, so it needs the library's blobs: its blob store (`EventLog.blobs`),
    /// or what reads a shared library's blobs.
    public static func standard(blobs: BlobReader) -> [any Projector] {
        [SidebarProjector(), EpisodeDetailProjector(), SearchProjector(blobs: blobs), StatesProjector()]
    }

    /// Their names, for messages. Making a blob store touches no file, so any folder does.
    public static var names: [String] { standard(blobs: BlobReader(BlobStore(directory: "/"))).map(\.name) }
}
