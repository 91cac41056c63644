import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A folder of a library, held open, so that what is written in it lands there and nowhere else.
///
/// The folder is opened without following a symbolic link, and its files are opened, created, renamed
/// and removed by name relative to that descriptor (the POSIX `*at` calls), never through a link: a
/// link planted in place of a folder or a file is refused with a message naming it, and cannot send a
/// write outside the library, whatever is swapped while the folder is open. Only the path that leads to
/// the library itself may pass through links, since that is the user's choice of where it lives.
///
/// Temporary files get random names, are created exclusively, and stay locked (`flock`) by the process
/// writing them until they are closed: ``removeAbandoned(prefixes:)`` takes only those whose writer is gone.
final class Folder {
    let descriptor: Int32
    /// Where it is, for messages and for the path-based reads.
    let path: String
    /// The library it belongs to, as refusals name it.
    let library: String
    /// Set for a derived folder (``derived(_:noting:)``): what stands where it replaces or removes a file
    /// and is not one (a folder, put there by hand or by damage) is set aside, and noted here, rather
    /// than left in the way.
    private var setAsides: SetAsideDerivedFiles?

    private init(descriptor: Int32, path: String, library: String) {
        self.descriptor = descriptor
        self.path = path
        self.library = library
    }

    deinit { close(descriptor) }

    /// The library's own folder; the path to it may lead through symbolic links.
    static func library(_ path: String) throws(EventLogError) -> Folder {
        let fd = FileSystemLayer.current.openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard fd >= 0 else { throw .system("open", path: path, errno: errno) }
        return Folder(descriptor: fd, path: path, library: path)
    }

    /// The folder at `path` inside the library at `library`, refused if a symbolic link or a file is
    /// in its place.
    static func inside(_ library: String, at path: String) throws(EventLogError) -> Folder {
        try open(AT_FDCWD, path, path: path, library: library)
    }

    /// The library's derived folder at `path` (the stream index, the snapshots), made when missing: a
    /// link or a file in its place is set aside and a real folder made, never written through. Its files
    /// are derived too: a folder in the place of one is set aside. `setAsides` hears of either.
    static func derived(_ path: String, noting setAsides: SetAsideDerivedFiles) throws(EventLogError) -> Folder {
        try Folder.library(FileSystem.folder(of: path)).derivedSubfolder((path as NSString).lastPathComponent, noting: setAsides)
    }

    /// The derived folder `name` in this one, as ``derived(_:noting:)`` makes it.
    func derivedSubfolder(_ name: String, noting setAsides: SetAsideDerivedFiles) throws(EventLogError) -> Folder {
        let folder: Folder
        do {
            folder = try subfolder(name, creating: true).folder
        } catch {
            // A file or a link in its place (``open(_:_:path:library:)``'s only refusal).
            guard case .libraryNotWritable = error, setAside(name, noting: setAsides, folder: true) else { throw error }
            folder = try subfolder(name, creating: true).folder
        }
        folder.setAsides = setAsides
        return folder
    }

    /// The folder `name` in this one; with `creating`, made first when missing (0777 less the umask).
    /// `created` says whether it was: the caller syncs this folder before relying on the new entry.
    func subfolder(_ name: String, creating: Bool = false) throws(EventLogError) -> (folder: Folder, created: Bool) {
        let path = path + "/" + name
        // Opened first: mkdir takes this folder's lock even when the subfolder is there, which a blob
        // staged meanwhile in this folder waits for.
        if creating, let existing = try? Self.open(descriptor, name, path: path, library: library) { return (existing, false) }
        var created = false
        if creating {
            if FileSystemLayer.current.mkdirat(descriptor, name, 0o777) == 0 {
                created = true
            } else if errno != EEXIST {
                throw .system("create folder", path: path, errno: errno)
            }
        }
        return (try Self.open(descriptor, name, path: path, library: library), created)
    }

    private static func open(_ directory: Int32, _ name: String, path: String, library: String) throws(EventLogError) -> Folder {
        let fd = FileSystemLayer.current.openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
        guard fd >= 0 else {
            let code = errno
            // Linux answers ENOTDIR, not ELOOP, for a link opened with O_DIRECTORY | O_NOFOLLOW.
            if code == ENOTDIR || code == ELOOP {
                var info = stat()
                if fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFLNK {
                    throw .symbolicLink(path, library: library)
                }
                throw .libraryNotWritable(
                    path: library, reason: "\(relativePath(path, to: library)) is not a folder; move it away")
            }
            throw .system("open", path: path, errno: code)
        }
        return Folder(descriptor: fd, path: path, library: library)
    }

    /// Opens the file `name` in this folder; never through a symbolic link when writing (see ``File``).
    func open(_ name: String, flags: Int32) throws(EventLogError) -> File {
        do {
            return try File.open(in: descriptor, name, flags: flags, naming: path + "/" + name)
        } catch .libraryNotWritable {
            // The only refusal File.open makes: a link where it was told not to follow one.
            throw .symbolicLink(path + "/" + name, library: library)
        }
    }

    /// Creates a new file `<prefix><16 random hex digits><suffix>` that no other file had the name of,
    /// locked by this process until it is closed.
    func createTemporary(prefix: String, suffix: String = "") throws(EventLogError) -> (name: String, file: File) {
        var attempts = 0
        while true {
            attempts += 1
            let name = prefix + Self.randomHex() + suffix
            let file: File
            do {
                file = try open(name, flags: O_RDWR | O_CREAT | O_EXCL)
            } catch .io(_, _, EEXIST) where attempts < 16 {
                continue
            }
            flock(file.descriptor, LOCK_EX)
            // A sweep may have taken it between its creation and the lock: then start again.
            var info = stat()
            if fstat(file.descriptor, &info) == 0, info.st_nlink > 0 { return (name, file) }
            guard attempts < 16 else { throw .system("create", path: path + "/" + name, errno: ENOENT) }
        }
    }

    /// Renames `name` to `target` in `folder` (this one by default), replacing what was there. Durable
    /// once the target's folder is synced.
    func rename(_ name: String, to target: String, in folder: Folder? = nil) throws(EventLogError) {
        let destination = folder ?? self
        if FileSystemLayer.current.renameat(descriptor, name, destination.descriptor, target) == 0 { return }
        let code = errno
        // A folder in the way of a derived file: rename(2) replaces a file, never a folder that is not empty.
        if let setAsides = destination.setAsides, [EISDIR, ENOTEMPTY, EEXIST].contains(code), destination.setAside(target, noting: setAsides),
            FileSystemLayer.current.renameat(descriptor, name, destination.descriptor, target) == 0
        {
            return
        }
        throw .system("rename", path: path + "/" + name, errno: code)
    }

    /// Removes the file (or link) `name`; a missing one is not an error.
    func remove(_ name: String) throws(EventLogError) {
        if FileSystemLayer.current.unlinkat(descriptor, name, 0) == 0 || errno == ENOENT { return }
        let code = errno
        if let setAsides, code == EISDIR, setAside(name, noting: setAsides) { return }
        throw .system("remove", path: path + "/" + name, errno: code)
    }

    /// Moves what is at `name` out of the way, to the first free name of `name.damaged`, `name.damaged-2`
    /// ...: kept, as damage is, for whoever wants to see it, and never read again. Returns that name; nil
    /// when nothing could be moved. The name is looked for, then taken by a rename, which would replace a
    /// file made there meanwhile: callers hold the writer lock, or set aside what nobody makes (a file in
    /// the place of a folder), and a folder renamed never replaces a file.
    func setAside(_ name: String) -> String? {
        for attempt in 1...100 {
            let target = name + ".damaged" + (attempt == 1 ? "" : "-\(attempt)")
            var info = stat()
            guard fstatat(descriptor, target, &info, AT_SYMLINK_NOFOLLOW) != 0 else { continue }
            guard errno == ENOENT, FileSystemLayer.current.renameat(descriptor, name, descriptor, target) == 0 else { return nil }
            return target
        }
        return nil
    }

    /// ``setAside(_:)``, noted in `setAsides` with what was found in the place of a file, or of a
    /// `folder`. False when nothing was moved.
    private func setAside(_ name: String, noting setAsides: SetAsideDerivedFiles, folder: Bool = false) -> Bool {
        var info = stat()
        let found = fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? FileSystem.kind(info) : "something"
        guard let target = setAside(name) else { return false }
        let here = relativePath(path, to: library)
        let prefix = here == path ? "" : here + "/"
        setAsides.note(SetAsideDerivedFile(place: prefix + name + (folder ? "/" : ""), keptAs: prefix + target, found: found))
        return true
    }

    /// Makes the folder's entries (files created, renamed or removed in it) durable.
    func sync() throws(EventLogError) {
        guard FileSystemLayer.current.fsync(descriptor) == 0 else { throw .system("fsync", path: path, errno: errno) }
    }

    /// Replaces the file `name` with `bytes`, whole or not at all: a temporary file beside it, renamed
    /// over it. By default the file is synced before the rename and the folder after, so that after a
    /// crash `name` holds the old bytes or the new, durably. Derived files may skip the folder's sync
    /// (`syncingFile: true`: after a crash, the old file or the new, whole) or both (`false`: anything).
    /// With `destination`, the file replaced is `name` there, the temporary one still made here.
    func replace(_ name: String, in destination: Folder? = nil, with bytes: [UInt8], syncingFile: Bool? = nil) throws(EventLogError) {
        let (temporary, file) = try createTemporary(prefix: Self.temporaryPrefix(for: name))
        do {
            try file.write(bytes, at: 0)
            if syncingFile ?? true { try file.sync() }
            try rename(temporary, to: name, in: destination)
            if syncingFile == nil { try (destination ?? self).sync() }
        } catch {
            try? remove(temporary)
            throw error
        }
    }

    /// The prefix of the temporary files ``replace(_:in:with:syncingFile:)`` makes for `name`.
    static func temporaryPrefix(for name: String) -> String { "." + name + "." }

    /// The names in the folder, `.` and `..` left out.
    func contents() throws(EventLogError) -> [String] {
        try reading { FileSystem.names(in: $0) }
    }

    /// Whether the folder holds nothing but `.` and `..`: the first name found answers, however many
    /// the folder holds.
    func isEmpty() throws(EventLogError) -> Bool {
        try reading { dir in
            while let entry = readdir(dir) {
                let isDot = withUnsafeBytes(of: entry.pointee.d_name) { name in
                    name[0] == 0x2E && (name[1] == 0 || (name[1] == 0x2E && name[2] == 0))
                }
                if !isDot { return false }
            }
            return true
        }
    }

    /// `body` given the folder open for listing.
    private func reading<Result>(_ body: (OpaquePointer) -> Result) throws(EventLogError) -> Result {
        // A descriptor of its own: reading a folder moves the offset that its descriptor shares.
        let fd = Glibc.openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, let dir = fdopendir(fd) else {
            let code = errno
            if fd >= 0 { close(fd) }
            throw .system("list", path: path, errno: code)
        }
        defer { closedir(dir) }
        return body(dir)
    }

    /// Removes the files named `<prefix>…`, for any of `prefixes`, that were left behind: those no live
    /// process holds locked (see ``createTemporary(prefix:suffix:)``), and links. The folder is listed
    /// once, whatever the number of prefixes. Returns their names.
    @discardableResult
    func removeAbandoned(prefixes: [String]) -> [String] {
        guard let names = try? contents() else { return [] }
        var removed: [String] = []
        for name in names where prefixes.contains(where: { name.hasPrefix($0) }) {
            let fd = Glibc.openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            if fd < 0 {
                // A link, which no writer of ours made: never followed, only removed.
                guard errno == ELOOP else { continue }
            } else {
                defer { close(fd) }
                var info = stat()
                let isFile = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
                if isFile && flock(fd, LOCK_EX | LOCK_NB) != 0 { continue }  // its writer is still at work
            }
            if (try? remove(name)) != nil { removed.append(name) }
        }
        return removed
    }

    private static func randomHex() -> String {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// `path` relative to `folder`, when it is inside it.
func relativePath(_ path: String, to folder: String) -> String {
    path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : path
}
