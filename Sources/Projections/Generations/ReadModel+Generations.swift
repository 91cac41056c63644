import EventLog
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

extension ReadModel {
    /// `<library>/read/`, made if missing (with the process's umask). Refused when it is anything but a
    /// folder, a symbolic link included: nothing is ever written through a link.
    static func generationsFolder(in library: String) throws(EventLogError) -> String {
        let folder = library + "/" + generationsFolder
        if mkdir(folder, 0o777) != 0, errno != EEXIST { throw .failure("create", path: folder, errno: errno) }
        var info = stat()
        guard lstat(folder, &info) == 0 else { throw .failure("stat", path: folder, errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw .libraryNotWritable(path: library, reason: "\(folder) is not a folder (a symbolic link?); remove it")
        }
        return folder
    }

    /// A new, empty generation file, claimed, numbered after every file of `read/` (set-aside ones
    /// included, so that no name is used twice).
    static func newGeneration(in library: String) throws(EventLogError) -> GenerationClaim {
        let folder = try generationsFolder(in: library)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var number = (names.compactMap(GenerationFile.leadingNumber).max() ?? 0) + 1
        while true {
            let path = folder + "/" + GenerationFile.name(number)
            // Companions nobody could have made for a number never used: not followed, removed.
            for companion in GenerationFile.companions { unlink(path + companion) }
            if let claim = try GenerationClaim.create(path) { return claim }
            number += 1
        }
    }

    /// Fills the new generation at `path`: a copy of `live` (or nothing when nil), in which the `fresh`
    /// projectors get new tables and a checkpoint of 0, ready to be replayed.
    static func build(_ path: String, from live: DatabasePool?, projectors: [any Projector], fresh: [any Projector]) throws {
        if let live {
            // VACUUM INTO fills the empty file the claim created.
            try live.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
        }
        let queue = try openShadow(path)
        try queue.write { db in
            try db.execute(sql: try Checkpoints.ddl())
            for projector in fresh {
                for table in projector.tables { try db.execute(sql: "DROP TABLE IF EXISTS \(table)") }
                try db.execute(sql: try projector.schema())
                try Checkpoints.set(projector.name, version: projector.schemaVersion, checkpoint: 0, in: db)
            }
        }
        try queue.close()
    }

    /// Makes the generation at `path` the live one: in WAL mode (which makes the WAL and the index that
    /// read-only readers need), durable, then the link flipped. Returns it open.
    static func install(_ path: String, in library: String) throws -> DatabasePool {
        let database = try openLive(path, readOnly: false)
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw EventLogError.failure("open", path: path, errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw EventLogError.failure("sync", path: path, errno: errno) }
        try syncFolder((path as NSString).deletingLastPathComponent)
        try LiveLink(library: library).point(at: path)
        return database
    }

    /// Removes a generation that will never be live (a failed build): its file and companions.
    static func discard(_ path: String) {
        unlink(path)
        for companion in GenerationFile.companions { unlink(path + companion) }
    }

    /// Keeps the generation at `path` (and its WAL) as `read/NNNNNN.<word>.sqlite`, out of the way of the
    /// live link and of the removal of old generations. Returns the new path; nil when it could not be
    /// renamed (then it stays where it is, and is removed like any old generation).
    static func setAside(_ path: String, as word: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        let number = GenerationFile.leadingNumber(of: (path as NSString).lastPathComponent).map(GenerationFile.name) ?? "000000.sqlite"
        let stem = String(number.dropLast(GenerationFile.suffix.count))
        for attempt in 1...100 {
            let target = folder + "/" + stem + "." + word + (attempt == 1 ? "" : "-\(attempt)") + GenerationFile.suffix
            // link(2) neither follows a link nor replaces anything: a rename that cannot overwrite.
            guard link(path, target) == 0 else {
                if errno == EEXIST { continue }
                return nil
            }
            unlink(path)
            if link(path + "-wal", target + "-wal") == 0 { unlink(path + "-wal") }
            for companion in GenerationFile.companions { unlink(path + companion) }
            try? syncFolder(folder)
            return target
        }
        return nil
    }

    /// Removes what interrupted or finished rebuilds left: generations that are not live and that no
    /// process has claimed (a crashed build, a generation swapped out), companions without their
    /// database, and links of interrupted swaps. Call it under the writer lock.
    static func removeLeftovers(in library: String) {
        let live: String?
        switch LiveLink(library: library).read() {
        case .generation(let path): live = path
        case .missing: live = nil
        // Without a live generation to tell from the others, nothing is removed.
        case .invalid: return
        }
        let folder = library + "/" + generationsFolder
        var bases = Set<String>()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where GenerationFile.generationNumber(of: name) != nil {
            var base = name
            for companion in GenerationFile.companions where base.hasSuffix(companion) { base = String(base.dropLast(companion.count)) }
            bases.insert(folder + "/" + base)
        }
        for path in bases where path != live { GenerationClaim.removeIfUnclaimed(path) }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: library)) ?? [] where LiveLink.isLeftover(name) {
            unlink(library + "/" + name)
        }
    }
}
