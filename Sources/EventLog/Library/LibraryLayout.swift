import Foundation

/// Where a library keeps its files.
///
/// ```
/// <library>/FORMAT          "episodic library format N": refuses newer formats before anything is touched
/// <library>/LOCK            the writer lock (flock), holding the writer's pid
/// <library>/log/NNNNNNNN.seg
/// <library>/index/          the stream index (derived, rebuilt at will)
/// <library>/blobs/ab/cdef…  the blob store
/// ```
struct LibraryLayout {
    static let formatVersion: UInt32 = SegmentHeader.formatVersion

    let root: String

    var formatFile: String { root + "/FORMAT" }
    var lockFile: String { root + "/LOCK" }
    var logDirectory: String { root + "/log" }
    var indexDirectory: String { root + "/index" }
    var blobDirectory: String { root + "/blobs" }

    func segmentPath(_ number: UInt32) -> String { logDirectory + "/" + Segment.name(of: number) }

    /// `log/`, open for writing in it without following a link (see ``Folder``).
    func logFolder() throws(EventLogError) -> Folder { try Folder.inside(root, at: logDirectory) }

    static func formatText(_ version: UInt32) -> String { "episodic library format \(version)\n" }

    /// Makes the folders and the FORMAT file of a new library; does nothing to an existing one.
    static func create(at root: String) throws(EventLogError) -> LibraryLayout {
        let layout = LibraryLayout(root: root)
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
            if isNew { try FileSystem.syncDirectory((root as NSString).deletingLastPathComponent) }
            let folder = try Folder.library(root)
            for name in ["log", "index", "blobs"] { _ = try folder.subfolder(name, creating: true) }
            try folder.replace("FORMAT", with: Array(formatText(formatVersion).utf8))
        } catch {
            if case .io(_, _, let code) = error, code == EACCES || code == EROFS || code == EPERM {
                throw .libraryNotWritable(path: root, reason: String(cString: strerror(code)))
            }
            throw error
        }
        return layout
    }

    /// Checks that `root` is a library this build can read.
    static func open(at root: String) throws(EventLogError) -> LibraryLayout {
        let layout = LibraryLayout(root: root)
        switch FileSystem.isDirectory(root) {
        case nil: throw .libraryMissing(path: root)
        case false?: throw .libraryPathIsAFile(path: root)
        case true?: break
        }
        guard let file = try? File.openForReading(layout.formatFile), let bytes = try? file.readAll() else {
            throw .libraryMissing(path: root)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let prefix = "episodic library format "
        guard text.hasPrefix(prefix),
            let version = UInt32(text.dropFirst(prefix.count).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw .damagedLog(segment: "FORMAT", offset: 0, reason: "not an Episodic FORMAT file") }
        guard version <= formatVersion else {
            throw .newerFormat(file: layout.formatFile, found: version, supported: formatVersion)
        }
        return layout
    }
}
