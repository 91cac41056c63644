import CoreValues
import EventLog
import Foundation
import PostgresNIO

/// The hash chain of a shared log's commits, checked from their rows: each commit's `prev` must be the
/// hash of the commit before it, and its hash the SHA-256 of its lines as every machine's copy writes
/// them (``ChainDigest``), so that a row changed, removed, inserted or moved on the server breaks the
/// chain at the first commit it touches.
enum ServerChain {
    /// Checks `commits`, in order, after the commit whose hash is `previous`. Returns how many of them
    /// continue the chain, the hash of the last of those, and what is wrong with the next one, if any.
    static func check(_ commits: [ChainedCommit], after previous: String)
        -> (continuing: Int, hash: String, failure: SharedLogError?)
    {
        var hash = previous
        for (index, commit) in commits.enumerated() {
            let position = commit.positions.lowerBound
            guard let prev = commit.prev, let stored = commit.hash else {
                return (index, hash, .chainBroken(position: position, reason: "the server stores no hash with it"))
            }
            guard prev == hash else {
                return (index, hash, .chainBroken(
                    position: position, reason: "it says it follows the commit hashed \(prefix(prev)), but the one before it hashes to \(prefix(hash))"))
            }
            guard var digest = ChainDigest(after: hash) else {
                return (index, hash, .chainBroken(position: position, reason: "the hash before it is malformed"))
            }
            digest.add(commit.stored)
            guard digest.hex == stored else {
                return (index, hash, .chainBroken(
                    position: position, reason: "its events hash to \(prefix(digest.hex)), not to the \(prefix(stored)) stored with it"))
            }
            hash = stored
        }
        return (commits.count, hash, nil)
    }

    /// The first 16 digits of a hash, as messages show them.
    static func prefix(_ hash: String) -> String { String(hash.prefix(16)) + "…" }

    /// Fills `commits` and the head's hash for the commits a version-1 schema holds, computing each
    /// hash from the rows, from the library's genesis hash on: the migration to version 2, in its
    /// transaction (the `search_path` is the library's schema).
    static func fill(on session: PostgresSession) throws {
        guard let head = try session.query("SELECT library_id, position FROM log_head FOR UPDATE", waitsForOthers: true).first
        else { return }
        let (id, end) = try head.decode((UUID, Int64).self)
        let schema = try session.query("SELECT current_schema()::text").first!.decode(String.self)
        let log = try SharedLog(session: session, schema: schema)
        var digest = ChainDigest(libraryID: LibraryID(id))
        var position = LogPosition.none
        let last = LogPosition(UInt64(end))
        while position < last {
            let commits = try log.commits(after: position, through: last, limit: 5000)
            guard !commits.isEmpty else { break }
            var firsts: [Int64] = [], lasts: [Int64] = [], prevs: [String] = [], hashes: [String] = []
            for commit in commits {
                firsts.append(Int64(commit.positions.lowerBound.rawValue))
                lasts.append(Int64(commit.positions.upperBound.rawValue))
                prevs.append(digest.hex)
                digest.add(commit.stored)
                hashes.append(digest.hex)
                position = commit.positions.upperBound
            }
            try session.query("""
                INSERT INTO commits (commit_first, commit_last, prev, hash)
                SELECT * FROM unnest(\(firsts)::bigint[], \(lasts)::bigint[], \(prevs)::text[], \(hashes)::text[])
                """)
        }
        try session.query("UPDATE log_head SET hash = \(digest.hex)")
    }
}
