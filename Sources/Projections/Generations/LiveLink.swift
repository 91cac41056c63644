import EventLog
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `<library>/read.sqlite`: a symbolic link to the live generation's manifest, `read/NNNNNN.sqlite`, so
/// that `sqlite3 read.sqlite` opens it (and says where each projector's file is). Episodic itself never opens a file through the
/// link: it reads the link's text, checks that it names a generation, and opens that.
struct LiveLink {
    static let name = "read.sqlite"

    let library: String
    var path: String { library + "/" + Self.name }

    /// What the link says.
    enum Target: Equatable {
        case missing
        /// A generation's path in the library (the file itself may be gone).
        case generation(String)
        /// Something that is not a link to a generation (another file, a link elsewhere): never followed.
        case invalid(String)
    }

    func read() -> Target {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else {
            if errno == ENOENT { return .missing }
            if errno == EINVAL { return .invalid("\(path) is not a symbolic link") }
            return .invalid("\(path) cannot be read: \(String(cString: strerror(errno)))")
        }
        let text = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let folder = ReadModel.generationsFolder + "/"
        guard text.hasPrefix(folder), GenerationFile.isManifest(String(text.dropFirst(folder.count))) else {
            return .invalid("\(path) points at \(text), not at a generation in \(folder)")
        }
        return .generation(library + "/" + text)
    }

    /// Points the link at `generation` (a path in the library's `read/` folder) in one step: a new link
    /// under a random name, renamed over the old one (a rename replaces the link, never what it points
    /// at), then the folder synced.
    func point(at generation: String) throws(EventLogError) {
        let relative = ReadModel.generationsFolder + "/" + (generation as NSString).lastPathComponent
        var temporary = ""
        for _ in 0..<8 {
            temporary = path + ".new-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            // symlink(2) never follows or replaces what is at the new name.
            if symlink(relative, temporary) == 0 { break }
            guard errno == EEXIST else { throw .failure("link", path: temporary, errno: errno) }
            temporary = ""
        }
        guard !temporary.isEmpty else { throw .io(operation: "link", path: path, errno: EEXIST) }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .failure("rename", path: path, errno: code)
        }
        try syncFolder(library)
    }

    /// Clears the link's place when it holds anything but a link to a generation (a file, a folder, a
    /// link elsewhere, put there by hand or by damage): it is kept beside it as `read.sqlite.damaged`
    /// (or `-2` ...), and that path returned. Under the writer lock.
    func clearIfInvalid() -> String? {
        guard case .invalid = read() else { return nil }
        return FileSystem.setAside(path)
    }

    /// Links of interrupted swaps (`read.sqlite.new-…`).
    static func isLeftover(_ name: String) -> Bool { name.hasPrefix(Self.name + ".new") }
}

/// Makes a folder's entries durable (a rename, a new file).
func syncFolder(_ path: String) throws(EventLogError) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw .failure("open", path: path, errno: errno) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw .failure("sync", path: path, errno: errno) }
}
