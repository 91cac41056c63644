import Crypto
import EventLog
import Foundation

/// A shared log's row as the bytes its digests cover, written the same by this machine from its copy
/// and by the server (the generated `digest` columns of schema version 3, 0003-row-digests.sql): every
/// column of the event, then, on a commit's first row, the commit's bounds, `prev` and hash. A digest per
/// block of ``blockSize`` positions lets a machine check, in one query, that the server still holds
/// every row it copied.
enum RowDigest {
    /// Positions per block: block 0 holds positions 1 to 1,000.
    static let blockSize: UInt64 = 1000

    /// The block `position` falls in.
    static func block(of position: LogPosition) -> Int { Int((position.rawValue - 1) / blockSize) }

    /// The first position of `block`.
    static func start(of block: Int) -> LogPosition { LogPosition(UInt64(block) * blockSize + 1) }

    /// The digests of the blocks `0..<blocks` of the rows through `end`, in SQL for the server: for each
    /// block, the SHA-256 of its events' stored digests in position order and that of its commits'
    /// (those that start in it), as hex digits joined by `:` (nothing after it when no commit starts
    /// there); NULL for a block without events. Each block's digests are read from the indexes alone.
    static func blocksSQL(schema: String, blocks: Int, through end: LogPosition) -> String {
        let range = "BETWEEN b * \(blockSize) + 1 AND least((b + 1) * \(blockSize), \(end.rawValue))"
        return """
            SELECT b, (SELECT encode(sha256(string_agg(digest, ''::bytea ORDER BY position)), 'hex')
                       FROM \(schema).events WHERE position \(range))
                   || ':' || coalesce((SELECT encode(sha256(string_agg(digest, ''::bytea ORDER BY commit_first)), 'hex')
                                       FROM \(schema).commits WHERE commit_first \(range)), '')
            FROM generate_series(0, \(blocks - 1)) b
            """
    }

    /// The event's columns as text, as `event_digest` joins them on the server.
    static func eventText(of row: ServerRow) -> [UInt8] {
        let event = row.event
        let fields: [String] = [
            "\(event.position.rawValue)", "\(row.commitFirst.rawValue)", "\(row.commitLast.rawValue)",
            row.chained ? "t" : "f", event.stream.rawValue, "\(event.streamVersion)", event.type, "\(event.schemaVersion)",
            "\(event.timestamp.rawValue)", event.actor, event.commandID.description,
            event.undoes?.description ?? "",
        ]
        var bytes = Array(fields.joined(separator: "\u{1F}").utf8)
        bytes.append(0x1F)
        bytes += event.payload
        bytes.append(0x1F)
        bytes += Array(event.blobs.map { "\($0.sha256):\($0.byteCount)" }.joined(separator: ",").utf8)
        return bytes
    }

    /// The commit's columns as text, as `commit_digest` joins them on the server; nil on a row that
    /// starts no commit.
    static func commitText(of row: ServerRow) -> [UInt8]? {
        guard let prev = row.prev, let hash = row.hash else { return nil }
        return Array("\(row.commitFirst.rawValue)\u{1F}\(row.commitLast.rawValue)\u{1F}\(prev)\u{1F}\(hash)".utf8)
    }

    /// The row's digests as the server stores them, the event's then its commit's, as hex digits.
    static func hash(of row: ServerRow) -> String {
        var digests = Array(SHA256.hash(data: eventText(of: row)))
        if let commit = commitText(of: row) { digests += SHA256.hash(data: commit) }
        return digests.lowercaseHex
    }

    /// A block's digest from its rows' digests (``hash(of:)``), in order, as ``blocksSQL(schema:blocks:through:)``
    /// gives it.
    static func digest(_ rowHashes: [String]) -> String {
        var events = SHA256(), commits = SHA256()
        var anyCommit = false
        for hash in rowHashes {
            let bytes = Self.bytes(hex: hash)
            events.update(data: bytes.prefix(32))
            if bytes.count > 32 {
                commits.update(data: bytes.dropFirst(32))
                anyCommit = true
            }
        }
        return events.finalize().lowercaseHex + ":" + (anyCommit ? commits.finalize().lowercaseHex : "")
    }

    /// The bytes that lowercase hex digits (``hash(of:)``'s) stand for.
    private static func bytes(hex: String) -> [UInt8] {
        func value(_ digit: UInt8) -> UInt8 { digit <= UInt8(ascii: "9") ? digit &- UInt8(ascii: "0") : digit &- UInt8(ascii: "a") &+ 10 }
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }
}
