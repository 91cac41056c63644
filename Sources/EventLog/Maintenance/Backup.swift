import Foundation

/// What ``EventLog/backup(to:replacing:)`` wrote.
public struct BackupReport: Sendable, Equatable {
    /// The archive's path.
    public var archive: String
    /// The snapshot's newest event: the archive holds every event from position 1 through it.
    public var head: LogPosition
    public var segments: Int
    public var blobs: Int
    /// The archive's length.
    public var bytes: UInt64
    /// What was wrong with the log, for a backup taken of a damaged log on purpose; empty otherwise.
    public var damage: [String] = []

    /// How many events the archive holds (positions have no gaps).
    public var events: UInt64 { head.rawValue }
}

/// The log as one writer saw it between two commits: the head, the top-level files, and every segment
/// opened then, with the length that ends at the head's frame.
///
/// The open files keep what they held even if a compaction renames new files over them later, and
/// appends after the snapshot land beyond `size`, so the snapshot can be read at leisure without the lock.
struct LogSnapshot {
    struct SegmentFile {
        var name: String
        var file: File
        /// Up to the end of the last acknowledged frame.
        var size: UInt64
    }

    var head: LogPosition
    var topLevelFiles: [(name: String, contents: [UInt8])]
    var segments: [SegmentFile]
    /// What the library's own evidence says is wrong with the log (see ``EventLog/checkAcknowledged(witness:)``).
    var damage: [String]
}

extension EventLog {
    /// Writes a consistent snapshot of the library to `archive`, a POSIX tar file (``LibraryArchive``):
    /// its top-level files, every segment up to the head, and every blob an event up to the head refers
    /// to. Other processes may write meanwhile: the writer lock is held only to learn the head and open
    /// the files, and the snapshot ends at a commit boundary.
    ///
    /// Every frame, the hash chain from commit to commit, the head record and every blob are checked on
    /// the way: a damaged library throws, and gets no backup that would fail to restore, unless
    /// `acceptingDamage`: then a chain that breaks or a head record the log does not match is archived
    /// as it is, with a `DAMAGED` entry saying what is wrong (a frame that cannot be read still throws).
    /// The archive's `HEAD` names the snapshot's last commit, so that a restore refuses a log that ends
    /// anywhere else. The archive is written beside `archive` under a temporary name, fsynced, and only
    /// then given its name, so that a failed backup leaves nothing under it. Throws
    /// ``BackupError/archiveExists(path:)`` when `archive` exists, unless `replacing`.
    public func backup(to archive: String, replacing: Bool = false, acceptingDamage: Bool = false) throws -> BackupReport {
        try BackupTarget.check(archive, replacing: replacing)
        return try self.archive(try takeSnapshot(acceptingDamage: acceptingDamage), to: archive, replacing: replacing, acceptingDamage: acceptingDamage)
    }

    /// Writes what `snapshot` holds, and the blobs its events refer to, to `archive`, staged beside it
    /// and given its name once synced. No lock is needed. Call it on the instance that took the
    /// snapshot, without a ``refresh()`` in between: its reads go through the files the snapshot opened.
    func archive(_ snapshot: LogSnapshot, to archive: String, replacing: Bool, acceptingDamage: Bool = false) throws -> BackupReport {
        let contents = try self.contents(of: snapshot, acceptingDamage: acceptingDamage)
        let output = try BackupTarget.Staged(beside: archive)
        do {
            let report = try write(contents, to: TarWriter(output: .file(output.file)), named: archive)
            try output.publish(replacing: replacing)
            return report
        } catch {
            output.discard()
            throw error
        }
    }

    /// Writes the same archive as ``backup(to:replacing:acceptingDamage:)`` to an open stream, such as
    /// standard output, in order: there is nothing to stage or sync, and a failure midway leaves the
    /// reader an archive cut short, which a restore refuses. `name` names the stream in the report.
    public func backup(toStream descriptor: Int32, named name: String, acceptingDamage: Bool = false) throws -> BackupReport {
        let contents = try self.contents(of: try takeSnapshot(acceptingDamage: acceptingDamage), acceptingDamage: acceptingDamage)
        return try write(contents, to: TarWriter(output: .stream(descriptor, name: name)), named: name)
    }

    /// What an archive of `snapshot` holds besides its segments: the blobs its events refer to, and its
    /// top-level files with the head record (and a note of the damage, when `acceptingDamage` let some
    /// through). The chain and the blobs' references are read through the files the snapshot opened.
    /// No lock is needed. Call it on the instance that took the snapshot, without a ``refresh()`` in
    /// between.
    private func contents(of snapshot: LogSnapshot, acceptingDamage: Bool) throws -> ArchiveContents {
        var referenced = Set<BlobRef>()
        var damage = snapshot.damage
        // The same open files as the copy below: what is checked here is what is archived.
        var chain: ChainCheck? = ChainCheck(atStartOf: layout.readID())
        try read(through: snapshot.head) { envelope in
            referenced.formUnion(envelope.blobs)
            do {
                try chain?.add(envelope)
            } catch where acceptingDamage {
                damage.append("\(error)")
                chain = nil
            }
        }
        var topLevelFiles = snapshot.topLevelFiles
        if snapshot.head != .none, let hash = chain?.hashOfCurrentCommit {
            let record = HeadRecord(position: snapshot.head, hash: hash)
            topLevelFiles.insert((HeadRecord.fileName, Array(record.text.utf8)), at: topLevelFiles.firstIndex { $0.name == "FORMAT" } ?? 0)
        }
        if !damage.isEmpty {
            let note = (damage.map { "- " + $0 } + [""]).joined(separator: "\n")
            topLevelFiles.insert(
                (LibraryArchive.damagedNoteName, Array(note.utf8.prefix(1 << 16))),
                at: topLevelFiles.firstIndex { $0.name == "FORMAT" } ?? 0)
        }
        return ArchiveContents(snapshot: snapshot, blobs: Dictionary(grouping: referenced, by: \.sha256), topLevelFiles: topLevelFiles, damage: damage)
    }

    /// Writes `contents` as a tar archive through `writer`, and finishes it (a file is synced).
    private func write(_ contents: ArchiveContents, to writer: TarWriter, named archive: String) throws -> BackupReport {
        let snapshot = contents.snapshot
        let stamp = TarStamp()
        try writer.add(stamp.folder(LibraryArchive.logFolder), contents: [])
        for segment in snapshot.segments {
            let header = stamp.file(LibraryArchive.logFolder + segment.name, size: Int(segment.size))
            guard try writer.add(header, copying: segment.file) else {
                throw EventLogError.damagedLog(
                    segment: segment.name, offset: segment.size, reason: "the file became shorter while it was being backed up")
            }
        }
        try writer.add(stamp.folder(LibraryArchive.blobFolder), contents: [])
        var shard = ""
        for (sha, refs) in contents.blobs.sorted(by: { $0.key < $1.key }) {
            var stored: [UInt8] = []
            for ref in refs { stored = try storedBlob(ref) }
            if sha.prefix(2) != shard {
                shard = String(sha.prefix(2))
                try writer.add(stamp.folder(LibraryArchive.blobFolder + shard + "/"), contents: [])
            }
            try writer.add(stamp.file(LibraryArchive.Entry.blob(sha256: sha).name, size: stored.count), contents: stored)
        }
        // The top-level files last, FORMAT last of all (LibraryArchive.topLevelFiles).
        for (name, file) in contents.topLevelFiles {
            try writer.add(stamp.file(name, size: file.count), contents: file)
        }
        try writer.finish()
        return BackupReport(
            archive: archive, head: snapshot.head, segments: snapshot.segments.count, blobs: contents.blobs.count,
            bytes: writer.size, damage: contents.damage)
    }

    /// Takes the writer lock for as long as it takes to learn the head, check it against the head
    /// record, and open the files.
    func takeSnapshot(acceptingDamage: Bool = false) throws -> LogSnapshot {
        try withWriterLock {
            var damage: [String] = []
            if case .failure(let error) = Result(catching: { () throws(EventLogError) in try checkAcknowledged(witness: nil) }) {
                guard acceptingDamage, error.isDamage else { throw error }
                damage.append(error.description)
            }
            // After catching up under the lock, each segment's size ends at its last whole frame: a torn
            // tail or a frame being written is not counted, and no writer is between two commits.
            let segments = try segments.map { segment throws(EventLogError) in
                LogSnapshot.SegmentFile(name: segment.name, file: try file(forSegment: segment.number), size: segment.size)
            }
            var topLevel: [(String, [UInt8])] = []
            // The head record and the damage note are the snapshot's own, written by `archive`.
            for wanted in LibraryArchive.topLevelFiles where wanted.name != HeadRecord.fileName && wanted.name != LibraryArchive.damagedNoteName {
                if let contents = try topLevelFile(wanted) { topLevel.append((wanted.name, contents)) }
            }
            return LogSnapshot(head: head, topLevelFiles: topLevel, segments: segments, damage: damage)
        }
    }

    /// A top-level file's bytes; nil when it is missing and not required.
    private func topLevelFile(_ wanted: LibraryArchive.TopLevelFile) throws(EventLogError) -> [UInt8]? {
        let path = layout.root + "/" + wanted.name
        let file: File
        do {
            file = try File.open(path, flags: O_RDONLY | O_NOFOLLOW)
        } catch {
            if case .io(_, _, ENOENT) = error, !wanted.required { return nil }
            throw error
        }
        let contents = try file.read(count: wanted.maximumBytes + 1, at: 0)
        guard contents.count <= wanted.maximumBytes else {
            throw .damagedLog(segment: wanted.name, offset: 0, reason: "it holds more than \(wanted.maximumBytes) bytes")
        }
        return contents
    }

    /// The bytes of a blob's file, after checking that they hold the content `ref` names.
    private func storedBlob(_ ref: BlobRef) throws(EventLogError) -> [UInt8] {
        let file: File
        do {
            file = try File.open(blobs.path(for: ref), flags: O_RDONLY | O_NOFOLLOW)
        } catch {
            if case .io(_, _, ENOENT) = error { throw .blobMissing(ref) }
            throw error
        }
        let stored = try file.readAll()
        _ = try BlobStore.content(ofFile: stored, as: ref)
        return stored
    }
}

/// The owner, modes and time every entry of one archive gets.
private struct TarStamp {
    let owner: TarHeader.Owner
    let modified = UInt64(max(0, time(nil)))

    init() {
        let uid = getuid(), gid = getgid()
        owner = TarHeader.Owner(
            uid: uid, gid: gid, user: getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? "",
            group: getgrgid(gid).map { String(cString: $0.pointee.gr_name) } ?? "")
    }

    func file(_ name: String, size: Int) -> TarHeader {
        TarHeader(name: name, kind: .file, size: UInt64(size), mode: 0o644, modified: modified, owner: owner)
    }

    func folder(_ name: String) -> TarHeader {
        TarHeader(name: name, kind: .folder, size: 0, mode: 0o755, modified: modified, owner: owner)
    }
}

/// Where a backup goes: never a folder, never an existing file unless asked, and never half a file.
/// What a backup writes besides the snapshot's segments, checked before a byte of the archive is.
private struct ArchiveContents {
    var snapshot: LogSnapshot
    /// The blobs the snapshot's events refer to, by their sha256.
    var blobs: [String: [BlobRef]]
    var topLevelFiles: [(name: String, contents: [UInt8])]
    var damage: [String]
}

enum BackupTarget {
    static func check(_ path: String, replacing: Bool) throws {
        var info = stat()
        if lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw BackupError.archiveNotAFile(path: path) }
            if !replacing { throw BackupError.archiveExists(path: path) }
        }
        if FileSystem.isDirectory(FileSystem.folder(of: path)) != true {
            throw EventLogError.io(operation: "create", path: path, errno: ENOENT)
        }
    }


    /// A file beside the target under a random name, created afresh (never through a link).
    struct Staged {
        let file: File
        let path: String
        let target: String

        init(beside target: String) throws(EventLogError) {
            let name = (target as NSString).lastPathComponent
            var attempt = 0
            while true {
                let path = FileSystem.folder(of: target) + "/." + name + "." + String(UInt32.random(in: .min ... .max), radix: 16) + ".partial"
                do {
                    file = try File.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o666)
                    self.path = path
                    self.target = target
                    return
                } catch {
                    attempt += 1
                    guard case .io(_, _, EEXIST) = error, attempt < 16 else { throw error }
                }
            }
        }

        /// Gives the finished, synced file the target's name and makes that durable. Without
        /// `replacing`, an existing target (even one that appeared meanwhile) is left alone.
        func publish(replacing: Bool) throws {
            if replacing {
                try FileSystem.rename(path, to: target)
            } else if link(path, target) == 0 {
                try FileSystem.remove(path)
            } else if errno == EEXIST {
                throw BackupError.archiveExists(path: target)
            } else {
                // A file system without hard links: the check and the rename are two steps.
                guard !FileSystem.exists(target) else { throw BackupError.archiveExists(path: target) }
                try FileSystem.rename(path, to: target)
            }
            try FileSystem.syncDirectory(FileSystem.folder(of: target))
        }

        func discard() {
            try? FileSystem.remove(path)
        }
    }
}
