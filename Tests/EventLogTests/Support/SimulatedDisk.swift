import CoreValues
import Foundation

@testable import EventLog

/// A file-system layer that runs every call for real and keeps, beside it, a model of what the disk
/// holds durably: what a power cut at this moment would leave. In the spirit of SQLite's crash tests.
///
/// - A file's writes and truncations reach the disk at its next `fsync`; until then they are pending.
/// - A folder's entries (files created, renamed or removed in it, folders made) reach the disk at the
///   folder's next `fsync`; until then they are pending too.
///
/// ``stop(at:)`` makes the calls fail with EIO from the chosen operation on, as a crash or a kill
/// would end the process. ``materialize(into:using:)`` then writes the state a power cut leaves onto
/// real files: each file's pending writes dropped, applied, or torn (512-byte sectors of new bytes,
/// old bytes, zeros or garbage), each folder's pending changes applied up to a random point (so new
/// files vanish, renames revert, removals come undone). After a kill (``resume()``) the page cache
/// survives: the real files keep what was written, still pending in the model, and a later power cut
/// can lose it.
///
/// Operations counted: creating a file, truncating on open, writing, truncating, syncing a file or a
/// folder, making a folder, renaming, removing. Reads are not seen at all.
final class SimulatedDisk: FileSystemCalls, @unchecked Sendable {
    /// The syncs of the write path, by what they make durable.
    enum Sync: String, CaseIterable, Sendable, CustomStringConvertible {
        case segmentFile = "a segment file", logFolder = "log/", blobFile = "a blob file"
        case blobShard = "a blob shard folder", blobsFolder = "blobs/"
        var description: String { rawValue }
    }

    private enum Node: Hashable {
        case file(Int)
        case folder(Int)
    }

    private enum Change {
        case write(offset: Int, bytes: [UInt8])
        case truncate(Int)
    }

    private struct FileState {
        var durable: [UInt8] = []
        var pending: [Change] = []
    }

    private enum EntryChange {
        case add(String, Node)
        case remove(String)
        /// A rename inside one folder, atomic as journaling file systems make it.
        case rename(String, String, Node)
    }

    private struct FolderState {
        var durable: [String: Node] = [:]
        var current: [String: Node] = [:]
        var pending: [EntryChange] = []
    }

    private let lock = NSLock()
    private var files: [FileState] = []
    private var folders: [FolderState] = []
    /// The node each inode of the real files stands for now.
    private var inodes: [ino_t: Node] = [:]
    private let rootFolder: Int
    private var random: SplitMix64

    /// Operations counted so far.
    private(set) var operations = 0
    /// The syncs that reached the model, by what they made durable.
    private(set) var syncs: [Sync: Int] = [:]
    /// The next sync of this kind fails with EIO and makes nothing durable; every other call goes on
    /// working, as after a transient I/O error.
    private var failingSync: Sync?

    /// Makes the next sync of `kind` fail, once.
    func failNextSync(of kind: Sync) {
        lock.withLock { failingSync = kind }
    }
    private var stopAt: Int?
    private(set) var stopped = false
    /// A sync that does nothing, to show that the tests fail without it.
    let ignoring: Sync?

    /// Models the tree at `root` as it is now, all of it durable.
    init(root: String, seed: UInt64, ignoring: Sync? = nil) {
        self.random = SplitMix64(seed: seed)
        self.ignoring = ignoring
        rootFolder = 0
        folders.append(FolderState())
        inodes[Self.inode(of: root)!] = .folder(0)
        scan(root, into: 0)
    }

    private func scan(_ path: String, into folder: Int) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            let full = path + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            let node: Node
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                folders.append(FolderState())
                node = .folder(folders.count - 1)
                scan(full, into: folders.count - 1)
            case S_IFREG:
                files.append(FileState(durable: Array(FileManager.default.contents(atPath: full) ?? Data())))
                node = .file(files.count - 1)
            default: continue
            }
            inodes[info.st_ino] = node
            folders[folder].durable[name] = node
            folders[folder].current[name] = node
        }
    }

    /// From operation `operation` (counted from 1) on, every call fails with EIO.
    func stop(at operation: Int?) {
        lock.withLock { stopAt = operation }
    }

    /// After a stop taken as a kill: calls work again, as for a new process on the same machine.
    func resume(stoppingAt operation: Int? = nil) {
        lock.withLock {
            stopped = false
            stopAt = operation
        }
    }

    // MARK: - The calls

    func openat(_ directory: Int32, _ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        lock.withLock {
            if stopped { return fail() }
            let changes = flags & (O_CREAT | O_TRUNC) != 0
            let place = changes ? locate(directory, path) : nil
            let existing = place.flatMap { folders[$0.folder].current[$0.name] }
            if changes, place != nil, shouldStop() { return fail() }
            let fd = Glibc.openat(directory, path, flags, mode)
            guard fd >= 0, let place else { return fd }
            if existing == nil, flags & O_CREAT != 0 {
                files.append(FileState())
                let node = Node.file(files.count - 1)
                inodes[Self.inode(of: fd)!] = node
                add(node, named: place.name, in: place.folder)
            } else if flags & O_TRUNC != 0, case .file(let id)? = existing {
                files[id].pending.append(.truncate(0))
            }
            return fd
        }
    }

    func pwrite(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: off_t) -> Int {
        lock.withLock {
            if stopped { return fail() }
            guard case .file(let id)? = node(of: descriptor) else { return Glibc.pwrite(descriptor, bytes.baseAddress, bytes.count, offset) }
            if shouldStop() {
                // Killed in the middle of the call: part of it may be in the page cache already.
                let part = Int(random.next() % UInt64(bytes.count + 1))
                if part > 0, Glibc.pwrite(descriptor, bytes.baseAddress, part, offset) == part {
                    files[id].pending.append(.write(offset: Int(offset), bytes: Array(bytes[0..<part])))
                }
                return fail()
            }
            let written = Glibc.pwrite(descriptor, bytes.baseAddress, bytes.count, offset)
            if written > 0 { files[id].pending.append(.write(offset: Int(offset), bytes: Array(bytes[0..<written]))) }
            return written
        }
    }

    func ftruncate(_ descriptor: Int32, _ size: off_t) -> Int32 {
        lock.withLock {
            if stopped { return fail() }
            guard case .file(let id)? = node(of: descriptor) else { return Glibc.ftruncate(descriptor, size) }
            if shouldStop() { return fail() }
            let result = Glibc.ftruncate(descriptor, size)
            if result == 0 { files[id].pending.append(.truncate(Int(size))) }
            return result
        }
    }

    func fsync(_ descriptor: Int32) -> Int32 {
        lock.withLock {
            if stopped { return fail() }
            guard let node = node(of: descriptor) else { return 0 }
            if shouldStop() { return fail() }
            // The real fsync is left out: the model decides what is durable, and the test runs faster.
            if let ignoring, kind(of: node) == ignoring { return 0 }
            if let failing = failingSync, kind(of: node) == failing {
                failingSync = nil
                return fail()
            }
            if let kind = kind(of: node) { syncs[kind, default: 0] += 1 }
            switch node {
            case .file(let id):
                files[id].durable = Self.apply(files[id].pending, to: files[id].durable)
                files[id].pending = []
            case .folder(let id):
                folders[id].durable = folders[id].current
                folders[id].pending = []
            }
            return 0
        }
    }

    func mkdirat(_ directory: Int32, _ path: String, _ mode: mode_t) -> Int32 {
        lock.withLock {
            if stopped { return fail() }
            guard let place = locate(directory, path) else { return Glibc.mkdirat(directory, path, mode) }
            if shouldStop() { return fail() }
            let result = Glibc.mkdirat(directory, path, mode)
            guard result == 0 else { return result }
            folders.append(FolderState())
            let node = Node.folder(folders.count - 1)
            var info = stat()
            if fstatat(directory, path, &info, AT_SYMLINK_NOFOLLOW) == 0 { inodes[info.st_ino] = node }
            add(node, named: place.name, in: place.folder)
            return 0
        }
    }

    func renameat(_ fromDirectory: Int32, _ from: String, _ toDirectory: Int32, _ to: String) -> Int32 {
        lock.withLock {
            if stopped { return fail() }
            guard let source = locate(fromDirectory, from), let target = locate(toDirectory, to),
                let node = folders[source.folder].current[source.name]
            else { return Glibc.renameat(fromDirectory, from, toDirectory, to) }
            if shouldStop() { return fail() }
            let result = Glibc.renameat(fromDirectory, from, toDirectory, to)
            guard result == 0 else { return result }
            folders[source.folder].current[source.name] = nil
            folders[target.folder].current[target.name] = node
            if source.folder == target.folder {
                folders[source.folder].pending.append(.rename(source.name, target.name, node))
            } else {
                folders[source.folder].pending.append(.remove(source.name))
                folders[target.folder].pending.append(.add(target.name, node))
            }
            return 0
        }
    }

    func unlinkat(_ directory: Int32, _ path: String, _ flags: Int32) -> Int32 {
        lock.withLock {
            if stopped { return fail() }
            guard let place = locate(directory, path), folders[place.folder].current[place.name] != nil else {
                return Glibc.unlinkat(directory, path, flags)
            }
            if shouldStop() { return fail() }
            let result = Glibc.unlinkat(directory, path, flags)
            guard result == 0 else { return result }
            folders[place.folder].current[place.name] = nil
            folders[place.folder].pending.append(.remove(place.name))
            return 0
        }
    }

    // MARK: - The model

    private func shouldStop() -> Bool {
        operations += 1
        if let stopAt, operations >= stopAt { stopped = true }
        return stopped
    }

    private func fail<T: SignedInteger>() -> T {
        errno = EIO
        return -1
    }

    private func add(_ node: Node, named name: String, in folder: Int) {
        folders[folder].current[name] = node
        folders[folder].pending.append(.add(name, node))
    }

    /// The modelled folder and the name a call's (descriptor, path) points at; nil outside the model.
    private func locate(_ directory: Int32, _ path: String) -> (folder: Int, name: String)? {
        let parent: ino_t?
        let name: String
        if let slash = path.lastIndex(of: "/") {
            let folderPath = slash == path.startIndex ? "/" : String(path[..<slash])
            name = String(path[path.index(after: slash)...])
            var info = stat()
            parent = fstatat(directory, folderPath, &info, 0) == 0 ? info.st_ino : nil
        } else {
            name = path
            parent = directory == AT_FDCWD ? Self.inode(of: ".") : Self.inode(of: directory)
        }
        guard let parent, case .folder(let id)? = inodes[parent] else { return nil }
        return (id, name)
    }

    private func node(of descriptor: Int32) -> Node? {
        Self.inode(of: descriptor).flatMap { inodes[$0] }
    }

    private static func inode(of descriptor: Int32) -> ino_t? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? info.st_ino : nil
    }

    private static func inode(of path: String) -> ino_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_ino : nil
    }

    /// What a sync of `node` makes durable, by where the node is now.
    private func kind(of node: Node) -> Sync? {
        guard let path = path(of: node) else { return nil }
        switch (node, path.count) {
        case (.file, 2) where path[0] == "log": return .segmentFile
        case (.file, 2...3) where path[0] == "blobs": return .blobFile
        case (.folder, 1) where path[0] == "log": return .logFolder
        case (.folder, 1) where path[0] == "blobs": return .blobsFolder
        case (.folder, 2) where path[0] == "blobs": return .blobShard
        default: return nil
        }
    }

    private func path(of node: Node, in folder: Int = 0) -> [String]? {
        for (name, child) in folders[folder].current {
            if child == node { return [name] }
            if case .folder(let id) = child, let rest = path(of: node, in: id) { return [name] + rest }
        }
        return nil
    }

    private static func apply(_ changes: [Change], to bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        for change in changes {
            switch change {
            case .truncate(let size): resize(&bytes, to: size)
            case .write(let offset, let new):
                if bytes.count < offset + new.count { resize(&bytes, to: offset + new.count) }
                bytes.replaceSubrange(offset..<(offset + new.count), with: new)
            }
        }
        return bytes
    }

    private static func resize(_ bytes: inout [UInt8], to size: Int) {
        if size < bytes.count { bytes.removeLast(bytes.count - size) } else { bytes += repeatElement(0, count: size - bytes.count) }
    }

    // MARK: - After a power cut

    /// Writes what a power cut now would leave of the library into the folder `target` (created).
    /// `seed` picks which pending changes made it.
    func materialize(into target: String, seed: UInt64) throws {
        var contents: [Int: [UInt8]] = [:]
        try lock.withLock {
            try write(folder: rootFolder, to: target, seed: seed, contents: &contents)
        }
    }

    /// Each node draws from its own generator, so that a crash replays from its seed whatever order
    /// the folders are walked in.
    private func write(folder id: Int, to path: String, seed: UInt64, contents: inout [Int: [UInt8]]) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        var random = SplitMix64(seed: seed ^ (UInt64(id) &* 0x9E37_79B9_7F4A_7C15))
        for (name, node) in entriesAfterCut(folders[id], random: &random) {
            switch node {
            case .folder(let child): try write(folder: child, to: path + "/" + name, seed: seed, contents: &contents)
            case .file(let file):
                if contents[file] == nil {
                    var random = SplitMix64(seed: ~seed ^ (UInt64(file) &* 0xBF58_476D_1CE4_E5B9))
                    contents[file] = bytesAfterCut(files[file], random: &random)
                }
                try Data(contents[file]!).write(to: URL(fileURLWithPath: path + "/" + name))
            }
        }
    }

    /// A folder's durable entries and the first n of its pending changes, n chosen at random.
    private func entriesAfterCut(_ folder: FolderState, random: inout SplitMix64) -> [String: Node] {
        let count = folder.pending.count
        let reached: Int
        switch random.next() % 4 {
        case 0: reached = 0
        case 1: reached = count
        default: reached = Int(random.next() % UInt64(count + 1))
        }
        var entries = folder.durable
        for change in folder.pending.prefix(reached) {
            switch change {
            case .add(let name, let node): entries[name] = node
            case .remove(let name): entries[name] = nil
            case .rename(let from, let to, let node):
                entries[from] = nil
                entries[to] = node
            }
        }
        return entries
    }

    /// A file's durable bytes with its pending changes dropped, applied, or torn: in each 512-byte sector,
    /// the bytes they touched hold what they held after some number of them (written back at some moment
    /// before the cut), or zeros, or garbage, and the size is the size after some number of them. Bytes
    /// that were durable are never changed by a torn write beside them in their sector: the model assumes
    /// power-safe overwrite, as SQLite does by default.
    private func bytesAfterCut(_ file: FileState, random: inout SplitMix64) -> [UInt8] {
        var states = [file.durable]
        var touched = IndexSet()
        for change in file.pending {
            let before = states.last!
            states.append(Self.apply([change], to: before))
            switch change {
            case .write(let offset, let bytes): touched.insert(integersIn: offset..<(offset + bytes.count))
            case .truncate(let size): touched.insert(integersIn: min(size, before.count)..<max(size, before.count))
            }
        }
        switch random.next() % 4 {
        case 0: return states.first!
        case 1: return states.last!
        default: break
        }
        func pick() -> Int { Int(random.next() % UInt64(states.count)) }
        var bytes = states[pick()]
        let sectors = Set(touched.map { $0 / 512 })
        for sector in sectors.sorted() where sector * 512 < bytes.count {
            // Only the bytes the pending changes touched: durable bytes that share their sector stay.
            let changed = touched.intersection(IndexSet(integersIn: (sector * 512)..<min((sector + 1) * 512, bytes.count)))
            let choice = random.next() % 8
            let state = states[pick()]
            for offset in changed {
                switch choice {
                case 0: bytes[offset] = 0
                case 1: bytes[offset] = UInt8(truncatingIfNeeded: random.next())
                default: bytes[offset] = offset < state.count ? state[offset] : 0
                }
            }
        }
        return bytes
    }
}
