import CoreValues
import EventLog
import Foundation

/// The digests of this machine's copy of a shared log, by block of positions (``RowDigest``): what a
/// catch-up compares with the server's digests of the same rows, so that a row the server changed,
/// removed or moved after this machine copied it is found without sending the rows.
///
/// Kept in the library's `SHARED-DIGESTS` file, a cache of what the copy holds (the copy only grows),
/// so that each check reads only the commits the copy took since the last one. A file that cannot be
/// read is made again from the copy.
struct HeldDigests {
    static let fileName = "SHARED-DIGESTS"

    /// The position the digests cover through (a commit's last), and the hash of that commit.
    private(set) var through: LogPosition
    private(set) var hash: String
    /// The digests of the complete blocks, from block 0 on.
    private(set) var blocks: [String] = []
    /// The hashes of the rows of the block after them, through ``through``.
    private(set) var partial: [String] = []

    /// Nothing covered yet: the chain starts at the library's genesis hash.
    init(libraryID: LibraryID) {
        through = .none
        hash = ChainDigest(libraryID: libraryID).hex
    }

    /// The digests kept in `log`'s folder, or none covered when there are none there or they cannot be
    /// read, or cover more than the copy holds.
    static func load(from log: EventLog, libraryID: LibraryID) -> HeldDigests {
        var digests = HeldDigests(libraryID: libraryID)
        guard let data = FileManager.default.contents(atPath: log.path + "/" + fileName),
            let text = String(data: data, encoding: .utf8)
        else { return digests }
        var lines = text.split(separator: "\n").makeIterator()
        guard lines.next() == "episodic shared digests 2", let cover = lines.next()?.split(separator: " "), cover.count == 3,
            cover[0] == "through", let through = UInt64(cover[1]), ChainDigest(after: String(cover[2])) != nil,
            LogPosition(through) <= log.head
        else { return digests }
        var blocks: [String] = [], partial: [String] = []
        while let line = lines.next() {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { return digests }
            switch parts[0] {
            case "block" where partial.isEmpty && parts[1].wholeMatch(of: #/[0-9a-f]{64}:([0-9a-f]{64})?/#) != nil:
                blocks.append(String(parts[1]))
            case "row" where parts[1].wholeMatch(of: #/[0-9a-f]{64}([0-9a-f]{64})?/#) != nil:
                partial.append(String(parts[1]))
            default: return digests
            }
        }
        let rows = UInt64(blocks.count) * RowDigest.blockSize + UInt64(partial.count)
        guard rows == through else { return digests }
        digests.through = LogPosition(through)
        digests.hash = String(cover[2])
        digests.blocks = blocks
        digests.partial = partial
        return digests
    }

    /// Covers the copy's commits after ``through`` as well, through its head.
    mutating func extend(from log: EventLog) throws {
        guard through < log.head else { return }
        hash = try Self.walk(log, after: through, hash: hash) { row in
            add(row)
            return true
        }
    }

    /// Covers `commit` as well, which the copy has just taken after ``through``, as checked against the
    /// chain: what a catch-up copies is covered without reading it back. Nothing for a commit that does
    /// not follow ``through``.
    mutating func add(_ commit: ChainedCommit) {
        guard commit.positions.lowerBound == through.next, let commitHash = commit.hash else { return }
        for event in commit.stored.events {
            let first = event.position == commit.positions.lowerBound
            add(ServerRow(
                event: event, commitFirst: commit.positions.lowerBound, commitLast: commit.positions.upperBound,
                chained: commit.stored.chained, prev: first ? commit.prev : nil, hash: first ? commitHash : nil))
        }
        hash = commitHash
    }

    private mutating func add(_ row: ServerRow) {
        partial.append(RowDigest.hash(of: row))
        if partial.count == Int(RowDigest.blockSize) {
            blocks.append(RowDigest.digest(partial))
            partial.removeAll(keepingCapacity: true)
        }
        through = row.event.position
    }

    /// The digest of `block`: a complete one's, or the partial block's through ``through``.
    func digest(of block: Int) -> String {
        block < blocks.count ? blocks[block] : RowDigest.digest(partial)
    }

    /// Writes the digests into `log`'s folder, whole or not at all.
    func save(in log: EventLog) throws {
        var text = "episodic shared digests 2\nthrough \(through.rawValue) \(hash)\n"
        for block in blocks { text += "block \(block)\n" }
        for row in partial { text += "row \(row)\n" }
        try log.replaceFile(named: Self.fileName, with: Array(text.utf8))
    }

    /// Calls `body` with each row of the copy's commits after `position` (where a commit ends, whose hash
    /// is `hash`), as the server holds them, until `body` returns false or the head. Returns the hash of
    /// the last commit read whole.
    @discardableResult
    static func walk(_ log: EventLog, after position: LogPosition, hash: String, _ body: (ServerRow) throws -> Bool) throws -> String {
        var last = hash
        do {
            try log.readCommits(from: position.next) { stored in
                guard var digest = ChainDigest(after: last) else { throw Stop() }
                digest.add(stored)
                let commit = ChainedCommit(stored: stored, prev: last, hash: digest.hex)
                for event in stored.events {
                    let first = event.position == commit.positions.lowerBound
                    let row = ServerRow(
                        event: event, commitFirst: commit.positions.lowerBound, commitLast: commit.positions.upperBound,
                        chained: stored.chained, prev: first ? commit.prev : nil, hash: first ? commit.hash : nil)
                    guard try body(row) else { throw Stop() }
                }
                last = digest.hex
            }
        } catch is Stop {}
        return last
    }

    private struct Stop: Error {}
}
