/// What a library backup holds: a tar archive whose entries are named as the library's own files, so
/// that `tar xf` into an empty folder gives a library.
///
/// ```
/// log/               every segment, in order, the last one cut at the snapshot's head
/// log/00000001.seg
/// blobs/             then every blob an event up to the head refers to, under its shard folder
/// blobs/ab/
/// blobs/ab/cdef…
/// ID                 then the top-level files: the library's id, when the library has one,
/// HEAD               the snapshot's head (position and hash), which a restore holds the log to,
/// DAMAGED            what was wrong, only in a backup taken of a damaged log on purpose (`--damaged`),
/// FORMAT             and FORMAT last of all: a folder that an interrupted `tar xf` left is not a library
/// ```
///
/// Derived state (the stream index, the read models), `LOCK` and temporary files are not part of it.
enum LibraryArchive {
    /// A file at the top of the library that a backup copies when present.
    struct TopLevelFile {
        var name: String
        /// Larger is not a file of this kind: a restore refuses it.
        var maximumBytes: Int
        /// A library cannot be opened without it.
        var required: Bool
    }

    /// The top-level files, in the order the archive holds them (after the log and the blobs) and a
    /// restore writes them: FORMAT last of all, as at creation.
    static let topLevelFiles = [
        TopLevelFile(name: "ID", maximumBytes: 128, required: false),
        TopLevelFile(name: HeadRecord.fileName, maximumBytes: HeadRecord.maximumBytes, required: false),
        TopLevelFile(name: damagedNoteName, maximumBytes: 1 << 16, required: false),
        TopLevelFile(name: "FORMAT", maximumBytes: 64, required: true),
    ]

    /// What a backup of a damaged log says of it, a problem a line.
    static let damagedNoteName = "DAMAGED"

    static func topLevelFile(_ name: String) -> TopLevelFile? { topLevelFiles.first { $0.name == name } }

    static let logFolder = "log/"
    static let blobFolder = "blobs/"

    /// The largest segment a log writes (the stream index's offsets are 32-bit).
    static let maximumSegmentBytes = UInt64(UInt32.max)
    /// The largest blob file a reader can decode: content up to 1 GiB, stored as one LZ4 frame, which
    /// may be slightly larger than its content when it does not compress.
    static let maximumBlobBytes = UInt64(LZ4Frame.maximumContentSize) + UInt64(LZ4Frame.maximumContentSize) / 64

    /// An archive entry's name, as a restore accepts it.
    enum Entry: Hashable {
        /// One of ``LibraryArchive/topLevelFiles``, by name.
        case topLevel(String)
        case segment(UInt32)
        /// A blob, by the sha256 of its content.
        case blob(sha256: String)
        /// `log/`, `blobs/` or a blob shard `blobs/ab/`: created on restore whether listed or not.
        case folder(String)

        var name: String {
            switch self {
            case .topLevel(let name): name
            case .segment(let number): LibraryArchive.logFolder + Segment.name(of: number)
            case .blob(let sha): LibraryArchive.blobFolder + sha.prefix(2) + "/" + sha.dropFirst(2)
            case .folder(let name): name
            }
        }

        /// Classifies `name`, or says why no library file has that name.
        init(name: String, isFolder: Bool) throws(LibraryArchive.NameProblem) {
            guard !name.isEmpty else { throw .unexpected("an entry has no name") }
            if name.hasPrefix("/") { throw .unsafe("is an absolute path") }
            if name.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
                throw .unsafe("reaches out of the library folder through \"..\"")
            }
            if isFolder {
                let folder = name.hasSuffix("/") ? name : name + "/"
                if folder == LibraryArchive.logFolder || folder == LibraryArchive.blobFolder {
                    self = .folder(folder)
                    return
                }
                let shard = folder.dropFirst(LibraryArchive.blobFolder.count).dropLast()
                guard folder.hasPrefix(LibraryArchive.blobFolder), shard.count == 2, Self.isLowercaseHex(shard) else {
                    throw .unexpected("no folder of a library has that name")
                }
                self = .folder(folder)
                return
            }
            if LibraryArchive.topLevelFile(name) != nil {
                self = .topLevel(name)
            } else if name.hasPrefix(LibraryArchive.logFolder) {
                let file = String(name.dropFirst(LibraryArchive.logFolder.count))
                guard file.utf8.count == 12, file.hasSuffix(".seg"), file.utf8.prefix(8).allSatisfy({ (0x30...0x39).contains($0) }),
                    let number = UInt32(file.prefix(8)), number > 0
                else { throw .unexpected("segments are named log/NNNNNNNN.seg, numbered from 00000001") }
                self = .segment(number)
            } else if name.hasPrefix(LibraryArchive.blobFolder) {
                let parts = name.dropFirst(LibraryArchive.blobFolder.count).split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0].count == 2, parts[1].count == 62, Self.isLowercaseHex(parts[0]),
                    Self.isLowercaseHex(parts[1])
                else { throw .unexpected("blobs are named blobs/ab/ followed by the other 62 lowercase hex digits of their sha256") }
                self = .blob(sha256: String(parts[0] + parts[1]))
            } else {
                throw .unexpected("it is not a file a backup holds (\(LibraryArchive.expectedNames))")
            }
        }

        private static func isLowercaseHex(_ text: Substring) -> Bool {
            text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }

        /// The most bytes an entry of this kind may hold.
        var maximumBytes: UInt64 {
            switch self {
            case .topLevel(let name): UInt64(LibraryArchive.topLevelFile(name)?.maximumBytes ?? 0)
            case .segment: LibraryArchive.maximumSegmentBytes
            case .blob: LibraryArchive.maximumBlobBytes
            case .folder: 0
            }
        }
    }

    /// The names a backup holds, for messages.
    static var expectedNames: String {
        (topLevelFiles.map(\.name) + ["log/NNNNNNNN.seg", "blobs/ab/<62 hex digits>"]).joined(separator: ", ")
    }

    /// Why an entry's name is refused.
    enum NameProblem: Error {
        /// Extracting it could write outside the library folder (the reason follows "its entry X").
        case unsafe(String)
        /// It is not the name of a library file.
        case unexpected(String)
    }
}
