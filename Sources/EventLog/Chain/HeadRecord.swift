import Foundation

/// The last commit a writer made durable, kept in the library's `HEAD` file beside the log: its position
/// and hash, and the segment file it ended in as `stat` then found it.
///
/// It is the log's evidence about itself. A truncation takes commits away with the file they were in,
/// but not this record: a log that ends before the recorded position has lost acknowledged commits, and
/// a commit at that position that hashes to anything else was changed. Since the hash pins every commit
/// before it through the chain, a log that holds the recorded commit holds every commit before it as
/// written. The segment's identity lets the next writer trust the last segment without reading it
/// again: a file with the same device, inode, size and times is the file the writer left.
///
/// Written after each sync that makes commits durable, never before: the record never claims a commit
/// that is not on disk. It is not synced itself (a crash may leave it behind the log, which claims less,
/// never more), and a record that cannot be read claims nothing. A backup holds one without the
/// segment's identity, which a restore cannot keep.
///
/// The file is text, a field a line: `position 14`, `hash <64 hex digits>`, and for the writer's own
/// `segment 1`, `file <device> <inode> <size> <modified ns> <changed ns>`.
struct HeadRecord: Equatable {
    var position: LogPosition
    var hash: CommitHash
    /// The last segment's number and identity when the record was written; nil in a backup's record.
    var segment: (number: UInt32, identity: FileIdentity)?

    static let fileName = "HEAD"
    /// Larger is not a head record.
    static let maximumBytes = 512

    static func == (a: HeadRecord, b: HeadRecord) -> Bool {
        a.position == b.position && a.hash == b.hash && a.segment?.number == b.segment?.number
            && a.segment?.identity == b.segment?.identity
    }

    var text: String {
        var lines = ["position \(position.rawValue)", "hash \(hash.hex)"]
        if let (number, identity) = segment {
            lines.append("segment \(number)")
            lines.append("file \(identity.device) \(identity.inode) \(identity.size) \(identity.modified) \(identity.changed)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The record `bytes` hold; nil for anything else.
    init?(_ bytes: [UInt8]) {
        guard bytes.count <= Self.maximumBytes, bytes.last == 0x0A else { return nil }
        var fields: [String: [Substring]] = [:]
        for line in String(decoding: bytes.dropLast(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            let words = line.split(separator: " ", omittingEmptySubsequences: false)
            guard let key = words.first, fields[String(key)] == nil else { return nil }
            fields[String(key)] = Array(words.dropFirst())
        }
        guard let position = fields["position"], position.count == 1, let at = UInt64(position[0]), at > 0,
            let hash = fields["hash"], hash.count == 1, let digest = Array(hash[0].utf8).withUnsafeBytes(CommitHash.init(hex:))
        else { return nil }
        self.position = LogPosition(at)
        self.hash = digest
        switch (fields["segment"], fields["file"]) {
        case (nil, nil):
            segment = nil
        case let (number?, file?):
            guard number.count == 1, let number = UInt32(number[0]), file.count == 5,
                let device = UInt64(file[0]), let inode = UInt64(file[1]), let size = Int64(file[2]),
                let modified = Int64(file[3]), let changed = Int64(file[4])
            else { return nil }
            segment = (number, FileIdentity(device: device, inode: inode, size: size, modified: modified, changed: changed))
        default:
            return nil
        }
        guard fields.count == (segment == nil ? 2 : 4) else { return nil }
    }

    init(position: LogPosition, hash: CommitHash, segment: (number: UInt32, identity: FileIdentity)? = nil) {
        self.position = position
        self.hash = hash
        self.segment = segment
    }

    /// What the library at `root` holds: `.absent` when it has no `HEAD` (a library written by an
    /// older build, or before its first commit).
    static func load(libraryAt root: String) -> Loaded {
        guard let file = try? File.open(root + "/" + fileName, flags: O_RDONLY | O_NOFOLLOW) else {
            return FileSystem.exists(root + "/" + fileName) ? .unreadable : .absent
        }
        guard (try? file.isRegular()) == true, let bytes = try? file.read(count: maximumBytes + 1, at: 0) else { return .unreadable }
        return HeadRecord(bytes).map(Loaded.record) ?? .unreadable
    }

    enum Loaded: Equatable {
        case absent
        /// There, but not a head record: it claims nothing, and the next writer replaces it.
        case unreadable
        case record(HeadRecord)

        var record: HeadRecord? {
            if case .record(let record) = self { return record }
            return nil
        }
    }
}
