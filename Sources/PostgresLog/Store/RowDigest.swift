import Crypto
import EventLog
import Foundation

/// A shared log's row as the bytes its digests cover, written the same by this machine from its copy
/// and by the server in SQL (``sql``): every column of the event, and its commit's `prev` and hash on
/// the commit's first row. A digest per block of ``blockSize`` positions lets a machine check, in one
/// query, that the server still holds every row it copied.
enum RowDigest {
    /// Positions per block: block 0 holds positions 1 to 1,000.
    static let blockSize: UInt64 = 1000

    /// The block `position` falls in.
    static func block(of position: LogPosition) -> Int { Int((position.rawValue - 1) / blockSize) }

    /// The first position of `block`.
    static func start(of block: Int) -> LogPosition { LogPosition(UInt64(block) * blockSize + 1) }

    /// The row's text in SQL, for `e`, a row of `events`, and `c`, the row of `commits` that the event
    /// starts (nulls when it does not start one). Fields as ``text(of:)`` writes them.
    static let sql = """
        e.position::text || chr(31) || e.commit_first::text || chr(31) || e.commit_last::text || chr(31) \
        || CASE WHEN e.chained THEN 't' ELSE 'f' END || chr(31) || e.stream || chr(31) || e.stream_version::text \
        || chr(31) || e.type || chr(31) || e.schema_version::text || chr(31) || e.time_ms::text || chr(31) || e.actor \
        || chr(31) || e.command_id::text || chr(31) || coalesce(e.undoes::text, '') || chr(31) || e.data \
        || chr(31) || array_to_string(e.blobs, ',') || chr(31) || coalesce(c.prev, '') || chr(31) || coalesce(c.hash, '')
        """

    /// A block's digest in SQL, over the rows grouped: the SHA-256 of the hex digits of each row's
    /// SHA-256, in order, as hex digits.
    static let blockSQL = """
        encode(sha256(convert_to(string_agg(encode(sha256(convert_to(\(sql), 'UTF8')), 'hex'), '' ORDER BY e.position), \
        'UTF8')), 'hex')
        """

    /// The row of `event`, of the commit `commit`, whose chain is given for its first event.
    static func text(of event: RecordedEvent, in commit: ChainedCommit) -> [UInt8] {
        let first = event.position == commit.positions.lowerBound
        return text(of: ServerRow(
            event: event, commitFirst: commit.positions.lowerBound, commitLast: commit.positions.upperBound,
            chained: commit.stored.chained, prev: first ? commit.prev : nil, hash: first ? commit.hash : nil))
    }

    /// The row as the server holds it.
    static func text(of row: ServerRow) -> [UInt8] {
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
        bytes += Array("\u{1F}\(row.prev ?? "")\u{1F}\(row.hash ?? "")".utf8)
        return bytes
    }

    /// The SHA-256 of the row, as hex digits.
    static func hash(of row: ServerRow) -> String { SHA256.hash(data: text(of: row)).lowercaseHex }

    /// A block's digest from its rows' hashes, in order.
    static func digest(_ rowHashes: [String]) -> String {
        var hasher = SHA256()
        for hash in rowHashes { hasher.update(data: Array(hash.utf8)) }
        return hasher.finalize().lowercaseHex
    }
}
