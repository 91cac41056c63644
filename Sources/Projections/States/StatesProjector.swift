import CoreValues
import EventCodec
import Foundation
import GRDB
import PodcastDomain

/// Each podcast's and episode's state as the domain folds it, as of the checkpoint: where a catch-up
/// starts an entity it meets (``EntityFold``), one row read instead of the entity's stream read and
/// decoded from the log again. A machine that comes back thousands of changes behind touches thousands
/// of entities, and their streams, spread over the whole log, were most of its catch-up.
///
/// An entity without a row has had no event through the checkpoint: its state there is `.initial`.
/// The rows are the encoding of the folds the log keeps of long streams (``KeptStates``), so the
/// schema version follows that encoding's format.
public struct StatesProjector: Projector {
    public let name = "states"
    /// ``KeptStates/format``'s number: a new format is a new schema, and the rows are replayed.
    public let schemaVersion = 3
    public let tables = ["podcast_states", "episode_states"]

    public init() {}

    public func write(_ changes: EntityChanges, to db: Database) throws {
        for (id, change) in changes.podcasts {
            try Self.put(KeptStates.encode(change.state), of: id.description, in: .podcasts, db)
        }
        // Encoding is most of the work: done on every core before the rows are written.
        let episodes = Array(changes.episodes)
        let encoded = try episodes.parallelMap { try KeptStates.encode($0.value.state) }
        for ((id, _), state) in zip(episodes, encoded) {
            try Self.put(state, of: id.description, in: .episodes, db)
        }
    }

    /// The two tables, one per kind of entity.
    enum Table: String {
        case podcasts = "podcast_states"
        case episodes = "episode_states"
    }

    /// Keeps `state` as `id`'s row; nil (a state still `.initial`) keeps none, which says the same.
    private static func put(_ state: [UInt8]?, of id: String, in table: Table, _ db: Database) throws {
        if let state {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO \(table.rawValue) (id, state) VALUES (?, ?)").execute(arguments: [id, Data(state)])
        } else {
            try db.cachedStatement(sql: "DELETE FROM \(table.rawValue) WHERE id = ?").execute(arguments: [id])
        }
    }

    /// The encoded states held of `podcasts` and `episodes`, by id; an id without a row has none.
    static func held(podcasts: [PodcastID], episodes: [EpisodeID], in db: Database) throws -> HeldStates {
        func rows(_ ids: [String], in table: Table) throws -> [String: [UInt8]] {
            guard !ids.isEmpty else { return [:] }
            var found: [String: [UInt8]] = [:]
            // Ids are lowercase UUIDs: nothing in them to escape in a JSON array.
            let list = "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            let cursor = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT id, state FROM \(table.rawValue) WHERE id IN (SELECT value FROM json_each(?))"),
                arguments: [list])
            while let row = try cursor.next() { found[row[0]] = [UInt8](row[1] as Data) }
            return found
        }
        return HeldStates(
            podcasts: try rows(podcasts.map(\.description), in: .podcasts), episodes: try rows(episodes.map(\.description), in: .episodes))
    }
}

/// Rows of the states projector, encoded, by entity id (see ``StatesProjector``).
struct HeldStates: Sendable {
    var podcasts: [String: [UInt8]]
    var episodes: [String: [UInt8]]
}
