import Foundation

/// The entries of a backup, every one checked before a byte is written, and how to write them.
struct RestorePlan {
    struct Item {
        var entry: LibraryArchive.Entry
        var dataOffset: UInt64
        var size: UInt64
    }

    let source: RestoreSource
    /// The segments and blobs, in archive order.
    private(set) var items: [Item] = []
    /// The top-level files' contents, by name.
    private(set) var topLevelFiles: [String: [UInt8]] = [:]

    var blobCount: Int { items.count { if case .blob = $0.entry { true } else { false } } }

    /// Reads every header of the archive (and the small top-level files) and refuses anything a backup
    /// does not hold. Throws ``BackupError``.
    init(_ source: RestoreSource) throws {
        self.source = source
        let archive = source.path
        var reader = try TarReader(file: source.file)
        var seen = Set<LibraryArchive.Entry>()
        var segments: [UInt32] = []
        while true {
            let next: TarReader.Entry?
            do {
                next = try reader.next()
            } catch let failure as TarFailure {
                if reader.headersRead == 0 {
                    throw BackupError.notABackup(archive: archive, entry: nil, reason: "it is not a tar archive (\(failure.reason))")
                }
                throw BackupError.damagedArchive(archive: archive, offset: failure.offset, reason: failure.reason)
            }
            guard let next else { break }
            let header = next.header
            let entry = try Self.classify(header, archive: archive)
            guard seen.insert(entry).inserted else {
                throw BackupError.notABackup(archive: archive, entry: header.name, reason: "it appears twice")
            }
            guard header.size <= entry.maximumBytes else {
                throw BackupError.notABackup(
                    archive: archive, entry: header.name,
                    reason: "it holds \(header.size) bytes, more than such a file can (\(entry.maximumBytes))")
            }
            switch entry {
            case .folder: break
            case .topLevel(let name):
                topLevelFiles[name] = try source.file.read(count: Int(header.size), at: next.dataOffset)
            case .segment(let number):
                segments.append(number)
                items.append(Item(entry: entry, dataOffset: next.dataOffset, size: header.size))
            case .blob:
                items.append(Item(entry: entry, dataOffset: next.dataOffset, size: header.size))
            }
        }
        for file in LibraryArchive.topLevelFiles where file.required && topLevelFiles[file.name] == nil {
            throw BackupError.notABackup(archive: archive, entry: nil, reason: "it holds no \(file.name) file")
        }
        try Self.checkFormat(topLevelFiles["FORMAT"] ?? [], archive: archive)
        for (i, number) in segments.sorted().enumerated() where number != UInt32(i + 1) {
            throw BackupError.notABackup(
                archive: archive, entry: nil, reason: "segment \(Segment.name(of: UInt32(i + 1))) is missing from it")
        }
    }

    /// What a header names, or why it is refused.
    private static func classify(_ header: TarHeader, archive: String) throws -> LibraryArchive.Entry {
        let entry: LibraryArchive.Entry
        switch header.kind {
        case .other(let flag):
            let reason: String
            switch flag {
            case UInt8(ascii: "1"): reason = "is a hard link"
            case UInt8(ascii: "2"): reason = "is a symbolic link"
            case UInt8(ascii: "3"), UInt8(ascii: "4"): reason = "is a device"
            case UInt8(ascii: "6"): reason = "is a named pipe"
            default:
                let name = flag >= 0x20 && flag < 0x7F ? "'\(Character(Unicode.Scalar(flag)))'" : "\(flag)"
                throw BackupError.notABackup(archive: archive, entry: header.name, reason: "its tar entry type \(name) is not one a backup holds")
            }
            throw BackupError.unsafeEntry(archive: archive, entry: header.name, reason: reason)
        case .extended:
            throw BackupError.notABackup(archive: archive, entry: header.name, reason: "a pax header with no entry after it")
        case .folder, .file:
            do {
                entry = try LibraryArchive.Entry(name: header.name, isFolder: header.kind == .folder)
            } catch {
                switch error {
                case .unsafe(let reason): throw BackupError.unsafeEntry(archive: archive, entry: header.name, reason: reason)
                case .unexpected(let reason): throw BackupError.notABackup(archive: archive, entry: header.name, reason: reason)
                }
            }
        }
        return entry
    }

    /// The FORMAT file must name a version this build reads.
    private static func checkFormat(_ bytes: [UInt8], archive: String) throws {
        guard let version = try? LibraryLayout.parseFormat(bytes) else {
            throw BackupError.notABackup(archive: archive, entry: "FORMAT", reason: "it is not an Episodic FORMAT file")
        }
        guard version <= LibraryLayout.formatVersion else {
            throw EventLogError.newerFormat(file: archive + " (FORMAT)", found: version, supported: LibraryLayout.formatVersion)
        }
    }

    // MARK: Writing

    /// Writes the library's files into `root` (an empty folder), each fsynced, then its folders:
    /// segments and blobs in archive order, the top-level files last (FORMAT last of all). Each blob's
    /// content is checked against its name first. (The stream index and read models are derived: the
    /// first open rebuilds them.)
    func write(into root: String) throws {
        let logFolder = root + "/" + LibraryArchive.logFolder, blobFolder = root + "/" + LibraryArchive.blobFolder
        for folder in [logFolder, blobFolder] { try FileSystem.makeDirectory(folder) }
        var shards = Set<String>()
        for item in items {
            let path = root + "/" + item.entry.name
            switch item.entry {
            case .segment:
                try copy(item, to: path)
            case .blob(let sha):
                let stored = try source.file.read(count: Int(item.size), at: item.dataOffset)
                try Self.checkBlob(stored, sha256: sha, archive: source.path)
                let shard = blobFolder + sha.prefix(2)
                if shards.insert(shard).inserted { try FileSystem.makeDirectory(shard) }
                try Self.create(path, contents: stored)
            case .topLevel, .folder:
                break
            }
        }
        for shard in shards { try FileSystem.syncDirectory(shard) }
        try FileSystem.syncDirectory(blobFolder)
        try FileSystem.syncDirectory(logFolder)
        for file in LibraryArchive.topLevelFiles {
            if let contents = topLevelFiles[file.name] { try Self.create(root + "/" + file.name, contents: contents) }
        }
        try FileSystem.syncDirectory(root)
    }

    /// Copies an entry's data into a new file, in chunks, and fsyncs it.
    private func copy(_ item: Item, to path: String) throws {
        let output = try File.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)
        var done: UInt64 = 0
        while done < item.size {
            let chunk = try source.file.read(count: Int(min(item.size - done, 1 << 20)), at: item.dataOffset + done)
            guard !chunk.isEmpty else {
                throw BackupError.damagedArchive(archive: source.path, offset: item.dataOffset + done, reason: "the archive became shorter while it was read")
            }
            try output.write(chunk, at: done)
            done += UInt64(chunk.count)
        }
        try output.sync()
    }

    private static func create(_ path: String, contents: [UInt8]) throws {
        let file = try File.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)
        try file.write(contents, at: 0)
        try file.sync()
    }

    /// A blob file must be one LZ4 frame whose content has the sha256 of its name.
    private static func checkBlob(_ stored: [UInt8], sha256: String, archive: String) throws {
        let declared = stored.withUnsafeBytes { LZ4Frame.declaredContentSize($0) } ?? 0
        guard let ref = BlobRef(sha256: sha256, byteCount: declared) else {
            throw BackupError.notABackup(archive: archive, entry: sha256, reason: "it is not a blob's name")
        }
        do {
            _ = try BlobStore.content(ofFile: stored, as: ref)
        } catch {
            let reason = if case .blobDamaged(_, let reason) = error { reason } else { error.description }
            throw BackupError.restoredLibraryDamaged(archive: archive, problems: ["blob \(sha256) is damaged: \(reason)"])
        }
    }
}
