import Foundation

/// Where a library keeps its files.
///
/// ```
/// <library>/FORMAT          "episodic library format N": refuses newer formats before anything is touched
/// <library>/ID              the library's id (a UUID), where its commits' hash chain starts (format 2)
/// <library>/LOCK            the writer lock (flock), holding the writer's pid
/// <library>/log/NNNNNNNN.seg
/// <library>/index/          the stream index and the segment catalog (derived, rebuilt at will)
/// <library>/snapshots/      folds of long streams (derived, a cache: see ``StreamSnapshots``)
/// <library>/blobs/ab/cdef…  the blob store
/// <library>/quarantine/     what a writer set aside: torn tails nothing acknowledged
/// ```
struct LibraryLayout {
    /// The format this build writes, and the newest it reads. Format 2 chains every commit to the one
    /// before it; format 1 logs are read as they are and chained from their next commit on. Format 3
    /// lets compaction leave out the `prev` of a frame's commits after its first, which builds that read
    /// format 2 would take for damage.
    static let formatVersion: UInt32 = 3

    let root: String
    /// The version the FORMAT file says, as found when the library was opened.
    private(set) var storedVersion: UInt32

    var formatFile: String { root + "/FORMAT" }
    var idFile: String { root + "/ID" }
    var lockFile: String { root + "/LOCK" }
    var logDirectory: String { root + "/log" }
    var indexDirectory: String { root + "/index" }
    var blobDirectory: String { root + "/blobs" }
    var snapshotDirectory: String { root + "/snapshots" }
    var quarantineDirectory: String { root + "/quarantine" }

    /// The layout of `root` taken as this build's format, without reading its FORMAT file: for verify,
    /// which reports that file's problems itself.
    init(unverifiedAt root: String) {
        self.root = root
        self.storedVersion = Self.formatVersion
    }

    private init(root: String, storedVersion: UInt32) {
        self.root = root
        self.storedVersion = storedVersion
    }

    func segmentPath(_ number: UInt32) -> String { logDirectory + "/" + Segment.name(of: number) }

    /// `log/`, open for writing in it without following a link (see ``Folder``).
    func logFolder() throws(EventLogError) -> Folder { try Folder.inside(root, at: logDirectory) }

    static func formatText(_ version: UInt32) -> String { "episodic library format \(version)\n" }

    /// Makes the folders, the ID and the FORMAT file of a new library; does nothing to an existing one.
    static func create(at root: String, id: LibraryID = LibraryID()) throws(EventLogError) -> LibraryLayout {
        var layout = LibraryLayout(root: root, storedVersion: formatVersion)
        switch FileSystem.isDirectory(root) {
        case false?: throw .libraryPathIsAFile(path: root)
        case true? where FileSystem.exists(layout.formatFile): return try open(at: root)
        default: break
        }
        let isNew = !FileSystem.exists(root)
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw .libraryNotWritable(path: root, reason: "cannot create the folder (\(error.localizedDescription))")
        }
        do {
            if isNew { try FileSystem.syncDirectory(FileSystem.folder(of: root)) }
            let folder = try Folder.library(root)
            for name in ["log", "index", "blobs"] { _ = try folder.subfolder(name, creating: true) }
            try layout.writeID(id)
            // FORMAT last: a folder without it is not a library yet, whatever else a crash left in it.
            try layout.upgradeFormat()
        } catch {
            if case .io(_, _, let code) = error, code == EACCES || code == EROFS || code == EPERM {
                throw .libraryNotWritable(path: root, reason: String(cString: strerror(code)))
            }
            throw error
        }
        return layout
    }

    /// Checks that `root` is a library this build can read. Changes nothing.
    static func open(at root: String) throws(EventLogError) -> LibraryLayout {
        switch FileSystem.isDirectory(root) {
        case nil: throw .libraryMissing(path: root)
        case false?: throw .libraryPathIsAFile(path: root)
        case true?: break
        }
        let formatFile = root + "/FORMAT"
        guard let file = try? File.openForReading(formatFile), let bytes = try? file.readAll() else {
            throw .libraryMissing(path: root)
        }
        let version = try parseFormat(bytes)
        guard version <= formatVersion else {
            throw .newerFormat(file: formatFile, found: version, supported: formatVersion)
        }
        return LibraryLayout(root: root, storedVersion: version)
    }

    /// The version a FORMAT file states: `episodic library format N`, N a decimal u32, then whitespace.
    static func parseFormat(_ bytes: [UInt8]) throws(EventLogError) -> UInt32 {
        let text = String(decoding: bytes, as: UTF8.self)
        let prefix = "episodic library format "
        guard bytes.count <= 64, text.hasPrefix(prefix),
            let version = UInt32(text.dropFirst(prefix.count).trimmingWhitespace), version >= 1
        else { throw .damagedLog(segment: "FORMAT", offset: 0, reason: "not an Episodic FORMAT file") }
        return version
    }

    /// The library's id; nil when the ID file is missing or does not hold one.
    func readID() -> LibraryID? {
        guard let file = try? File.openForReading(idFile), let bytes = try? file.read(count: 128, at: 0) else { return nil }
        return LibraryID(text: String(decoding: bytes, as: UTF8.self))
    }

    /// Writes the ID file durably (a temporary file renamed into place, then the folder synced).
    func writeID(_ id: LibraryID) throws(EventLogError) {
        try Folder.library(root).replace("ID", with: Array(id.text.utf8))
    }

    /// Makes the FORMAT file say this build's version. Used at creation, and by the first writer of a
    /// library written by an older build, before its first commit in the new format: an older build then
    /// refuses the library instead of appending commits that break the chain.
    mutating func upgradeFormat() throws(EventLogError) {
        try Folder.library(root).replace("FORMAT", with: Array(Self.formatText(Self.formatVersion).utf8))
        storedVersion = Self.formatVersion
    }
}

/// A library's id: a random UUID chosen when the library is created, where its hash chain starts. A
/// shared library's copies on every machine carry the id of the library they copy.
public struct LibraryID: Hashable, Sendable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID = UUID()) { self.uuid = uuid }

    public var description: String { uuid.uuidString.lowercased() }

    /// Reads the ID file's text: a UUID, then a newline.
    init?(text: String) {
        guard text.utf8.count == 37, text.hasSuffix("\n"), let uuid = UUID(uuidString: String(text.dropLast())) else { return nil }
        self.uuid = uuid
    }

    /// The ID file's text: the UUID in lowercase, then a newline.
    var text: String { uuid.uuidString.lowercased() + "\n" }
}
