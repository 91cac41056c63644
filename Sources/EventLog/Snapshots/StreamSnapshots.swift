import Crypto
import Foundation

/// A stream's fold, kept: the state its caller encoded, and the point of the stream it stands at.
public struct StreamSnapshot: Equatable, Sendable {
    public var point: StreamPoint
    /// What the caller's state is written as; a snapshot of another format is not handed back.
    public var format: String
    /// The caller's encoding of the state.
    public var state: [UInt8]

    public init(point: StreamPoint, format: String, state: [UInt8]) {
        self.point = point
        self.format = format
        self.state = state
    }
}

/// Folds of long streams, kept in `<library>/snapshots/` so that a command on an entity with a long
/// history reads only the events after the fold (a podcast's stream may hold thousands).
///
/// A cache, and derived: a snapshot is used only when its checksum holds, its format is the caller's,
/// and the log holds the very event it stands after (``EventLog/read(stream:after:_:)``); anything
/// else, a log restored from an older copy or a file cut short by a crash included, is passed over and
/// the stream read whole. Files are replaced whole and never synced; removing the folder loses nothing.
/// One file per stream: a header line (JSON: point, format, SHA-256 of the state), then the state.
public final class StreamSnapshots {
    let directory: String
    /// Hears of what stood in the place of `snapshots/` or one of its files, and was set aside.
    private let setAsides: SetAsideDerivedFiles

    init(directory: String, noting setAsides: SetAsideDerivedFiles) {
        self.directory = directory
        self.setAsides = setAsides
    }

    /// The snapshot of `stream` in `format`, if one is kept and reads back whole.
    public func snapshot(of stream: StreamID, format: String) -> StreamSnapshot? {
        guard let bytes = Self.contents(of: path(of: stream)), let snapshot = Self.decode(bytes), snapshot.format == format
        else { return nil }
        return snapshot
    }

    /// Keeps `snapshot` for `stream`, replacing the one kept. Best effort, as a cache is: a library this
    /// process cannot write keeps none.
    ///
    /// The file is written in ``incomingFolder`` and renamed into place, so that the temporary files of
    /// killed writers are looked for there: the folder holds a file per stream, and listing it for each
    /// fold kept made a script of 5,000 retitles on a library of 3,000 episodes spend 7 % of its time
    /// reading directory entries.
    public func keep(_ snapshot: StreamSnapshot, of stream: StreamID) {
        guard let folder = try? Folder.derived(directory, noting: setAsides),
            let incoming = try? folder.derivedSubfolder(Self.incomingFolder, noting: setAsides)
        else { return }
        // Everything incoming/ holds is a temporary file (``Folder/temporaryPrefix(for:)`` begins with a dot).
        incoming.removeAbandoned(prefixes: ["."])
        try? incoming.replace(Self.fileName(of: stream), in: folder, with: Self.encode(snapshot), syncingFile: false)
    }

    /// The subfolder where kept folds are written before they are renamed into place.
    static let incomingFolder = "incoming"

    /// Every snapshot kept that reads back whole, by stream, whatever its format: for `log verify`.
    public func all() -> [(stream: StreamID, snapshot: StreamSnapshot)] {
        let names = (try? FileSystem.contents(of: directory)) ?? []
        return names.sorted().compactMap { name in
            guard name.hasPrefix(Self.prefix), let stream = StreamID(rawValue: String(name.dropFirst(Self.prefix.count))),
                let bytes = Self.contents(of: directory + "/" + name), let snapshot = Self.decode(bytes)
            else { return nil }
            return (stream, snapshot)
        }
    }

    /// Forgets the snapshot of `stream`. Best effort, as ``keep(_:of:)``.
    public func remove(of stream: StreamID) {
        try? Folder.derived(directory, noting: setAsides).remove(Self.fileName(of: stream))
    }

    func path(of stream: StreamID) -> String { directory + "/" + Self.fileName(of: stream) }

    /// A kept fold is a few kilobytes; a file larger than this is not one.
    static let largest = 16 << 20

    /// The bytes of the regular file at `path`, up to ``largest``; nil for anything else. Never through a
    /// link, and never waiting: a pipe planted in the folder would block the open, and every command.
    private static func contents(of path: String) -> [UInt8]? {
        guard let file = try? File.open(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK), (try? file.isRegular()) == true,
            let size = try? file.size(), size <= largest
        else { return nil }
        return try? file.readAll()
    }

    private static let prefix = "s-"

    /// A stream id is a file name (no `/`), once prefixed so that none starts with a dot (`..` is an id).
    static func fileName(of stream: StreamID) -> String { prefix + stream.rawValue }

    static func encode(_ snapshot: StreamSnapshot) -> [UInt8] {
        let header = SnapshotHeader(
            position: snapshot.point.position.rawValue, version: snapshot.point.version, identity: snapshot.point.identity.rawValue,
            format: snapshot.format, sha256: SHA256.hash(data: snapshot.state).lowercaseHex)
        return header.bytes + [0x0A] + snapshot.state
    }

    /// The snapshot `bytes` hold; nil for anything that is not one whole.
    static func decode(_ bytes: [UInt8]) -> StreamSnapshot? {
        guard let newline = bytes.firstIndex(of: 0x0A),
            let header = bytes.withUnsafeBytes({ SnapshotHeader(UnsafeRawBufferPointer(rebasing: $0[..<newline])) }),
            let identity = EventIdentity(rawValue: header.identity), header.version > 0, header.position > 0
        else { return nil }
        let state = Array(bytes[(newline + 1)...])
        guard SHA256.hash(data: state).lowercaseHex == header.sha256 else { return nil }
        return StreamSnapshot(
            point: StreamPoint(position: LogPosition(header.position), version: header.version, identity: identity),
            format: header.format, state: state)
    }
}

/// A kept fold's header line: a JSON object of the point, the format and the state's SHA-256, keys
/// sorted, read and written with ``JSONText``: Foundation's `JSONDecoder` cost each command a third of a
/// millisecond on its first use, more than the rest of reading the fold.
private struct SnapshotHeader {
    var position: UInt64
    var version: Int
    var identity: String
    var format: String
    var sha256: String

    var bytes: [UInt8] {
        var out = Array(#"{"format":"#.utf8)
        JSONText.appendString(format, to: &out)
        out += Array(#","identity":"#.utf8)
        JSONText.appendString(identity, to: &out)
        out += Array(#","position":\#(position),"sha256":"#.utf8)
        JSONText.appendString(sha256, to: &out)
        out += Array(#","version":\#(version)}"#.utf8)
        return out
    }
}

extension SnapshotHeader {
    /// The header `line` holds, its members in any order, others passed over; nil when a member is
    /// missing or of another kind, or the line is anything but one JSON object.
    init?(_ line: UnsafeRawBufferPointer) {
        var text = JSONText(line)
        var position: Int64?, version: Int64?, identity: String?, format: String?, sha256: String?
        guard text.consume(UInt8(ascii: "{")) else { return nil }
        if !text.consume(UInt8(ascii: "}")) {
            repeat {
                guard let key = Self.string(&text, in: line), text.consume(UInt8(ascii: ":")) else { return nil }
                switch key {
                case "position": position = text.integer()
                case "version": version = text.integer()
                case "identity": identity = Self.string(&text, in: line)
                case "format": format = Self.string(&text, in: line)
                case "sha256": sha256 = Self.string(&text, in: line)
                default: guard text.skipValue() else { return nil }
                }
            } while text.consume(UInt8(ascii: ","))
            guard text.consume(UInt8(ascii: "}")) else { return nil }
        }
        text.skipWhitespace()
        guard text.atEnd, let position, let version, let identity, let format, let sha256 else { return nil }
        self.init(position: UInt64(position), version: Int(version), identity: identity, format: format, sha256: sha256)
    }

    private static func string(_ text: inout JSONText, in line: UnsafeRawBufferPointer) -> String? {
        guard let (range, escaped) = text.string() else { return nil }
        return JSONText.decodeString(UnsafeRawBufferPointer(rebasing: line[range]), escaped: escaped)
    }
}
