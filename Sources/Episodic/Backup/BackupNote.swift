import EventLog
import Foundation

/// The library's last backup, as its folder notes it (the `LAST-BACKUP` file): when, to which
/// archive, and how far the log reached. Kept out of the log: a backup is no fact of the domain, and a
/// library that cannot be written can still be backed up.
public struct BackupNote: Sendable, Equatable {
    /// When the archive was complete.
    public var time: Timestamp
    /// The archive's absolute path, as it was written.
    public var archive: String
    /// The archive holds positions 1 through this.
    public var head: LogPosition
    /// The archive's length.
    public var bytes: UInt64

    public init(time: Timestamp, archive: String, head: LogPosition, bytes: UInt64) {
        self.time = time
        self.archive = archive
        self.head = head
        self.bytes = bytes
    }

    /// The file in the library's folder.
    static let fileName = "LAST-BACKUP"
}

/// What the library's folder says of its last backup.
public enum LastBackup: Sendable, Equatable {
    /// No backup was noted: none was made, or none since the library was restored or cloned, or by a
    /// build that kept no note.
    case never
    case noted(BackupNote)
    /// The note is there but cannot be read; `reason` says why.
    case unreadable(reason: String)
}

extension BackupNote {
    /// The file's JSON: one object, keys sorted, then a newline.
    private struct Stored: Codable {
        var time: Timestamp
        var archive: String
        var head: UInt64
        var bytes: UInt64
    }

    var fileBytes: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let stored = Stored(time: time, archive: archive, head: head.rawValue, bytes: bytes)
        return Array(try! encoder.encode(stored)) + [0x0A]
    }

    /// The note in `library`'s folder.
    static func read(library: String) -> LastBackup {
        let path = library + "/" + fileName
        guard FileManager.default.fileExists(atPath: path) else { return .never }
        guard let data = FileManager.default.contents(atPath: path) else { return .unreadable(reason: "\(path) cannot be read") }
        guard data.count <= 64 << 10, let stored = try? JSONDecoder().decode(Stored.self, from: data) else {
            return .unreadable(reason: "\(path) does not hold a backup note")
        }
        return .noted(BackupNote(time: stored.time, archive: stored.archive, head: LogPosition(stored.head), bytes: stored.bytes))
    }
}
