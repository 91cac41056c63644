import EventLog
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

extension ReadModel {
    /// `<library>/read/`, made if missing (with the process's umask). Anything else in its place (a
    /// file, a symbolic link, which is never written through) is set aside first, as
    /// `read.damaged` (or `-2` ...): `setAside` says where.
    static func generationsFolder(in library: String) throws(EventLogError) -> (path: String, setAside: String?) {
        let folder = library + "/" + generationsFolder
        var setAside: String?
        for _ in 0..<3 {
            if mkdir(folder, 0o777) != 0, errno != EEXIST { throw .failure("create", path: folder, errno: errno) }
            var info = stat()
            guard lstat(folder, &info) == 0 else { throw .failure("stat", path: folder, errno: errno) }
            if (info.st_mode & S_IFMT) == S_IFDIR { return (folder, setAside) }
            // Another process may have moved it first: then look again.
            setAside = FileSystem.setAside(folder) ?? setAside
        }
        throw .libraryNotWritable(path: library, reason: "\(folder) is not a folder, and could not be moved aside")
    }

    /// A new, empty manifest in the library's `read/`, claimed.
    static func newGeneration(in library: String) throws(EventLogError) -> GenerationClaim {
        try newFile(in: try generationsFolder(in: library).path, for: nil)
    }

    /// A new, empty file in `folder`, claimed: the file of the projector named `projector`, or a manifest
    /// when nil. It is numbered after every file of the folder (set-aside ones included, so that no name
    /// is used twice).
    static func newFile(in folder: String, for projector: String?) throws(EventLogError) -> GenerationClaim {
        let names = (try? FileSystem.contents(of: folder)) ?? []
        var number = (names.compactMap(GenerationFile.leadingNumber).max() ?? 0) + 1
        while true {
            let path = folder + "/" + (projector.map { GenerationFile.name(number, projector: $0) } ?? GenerationFile.name(number))
            // Companions nobody could have made for a number never used: not followed, removed.
            for companion in GenerationFile.companions { unlink(path + companion) }
            if let claim = try GenerationClaim.create(path) { return claim }
            number += 1
        }
    }

    /// Makes `build`'s generation the live one: a new manifest naming its files and `kept` (projectors'
    /// files of the live generation, by name, left as they are), made durable, then the link flipped.
    /// Returns it open, with its claims.
    static func install(_ build: GenerationBuild, keeping kept: [String: String], in library: String, projectors: [any Projector]) throws -> Opened {
        var claims = [try newGeneration(in: library)]
        let generation = Generation(manifest: claims[0].path, files: kept.merging(build.files) { $1 })
        var database: DatabaseQueue?
        do {
            try Generation.write(generation.manifest, files: generation.files)
            try syncFolder(generation.folder)
            // This process's own claims on the files it keeps: the generation it replaces lets go of its own.
            for path in kept.values {
                guard let claim = try GenerationClaim.claim(path) else { throw EventLogError.io(operation: "claim", path: path, errno: ENOENT) }
                claims.append(claim)
            }
            // Opened before the link names it (opening makes files, which a full disk refuses): once the
            // link is flipped the generation is live, and its files must stay.
            database = try openLive(generation, projectors: projectors, readOnly: false)
            try LiveLink(library: library).point(at: generation.manifest)
            return Opened(generation: generation, database: database!, claims: claims + build.claims)
        } catch {
            try? database?.close()
            if LiveLink(library: library).read() == .generation(generation.manifest) {
                // Flipped, but the library folder's sync failed: live all the same.
                build.isLive = true
            } else {
                discard(generation.manifest)
            }
            throw error
        }
    }

    /// Removes a file that will never be live (a failed build's): the file and its companions.
    static func discard(_ path: String) {
        unlink(path)
        for companion in GenerationFile.companions { unlink(path + companion) }
    }

    /// Keeps `generation` (its manifest and its projectors' files, with their WALs) as
    /// `read/NNNNNN.<word>.sqlite` and `read/NNNNNN-NAME.<word>.sqlite`, out of the way of the live link and
    /// of the removal of old generations. Returns the manifest's new path; nil when it could not be
    /// renamed (then the generation stays where it is, and is removed like any old one).
    /// Keeps the library's live generation under `read/` with `.<word>` in its files' names, and
    /// removes the link, so that the next opening builds the read models anew: for read models that
    /// saw commits the log no longer holds, kept as evidence. Call it under the writer lock. Returns
    /// the kept manifest's path; nil when there was no live generation, or it could not be kept.
    public static func setAsideLive(library: String, as word: String) -> String? {
        let link = LiveLink(library: library)
        guard case .generation(let path) = link.read(), let generation = try? Generation.read(path, access: .readOnly),
            let kept = setAside(generation, as: word)
        else { return nil }
        unlink(link.path)
        try? syncFolder(library)
        return kept
    }

    static func setAside(_ generation: Generation, as word: String) -> String? {
        guard let kept = setAside(generation.manifest, as: word) else { return nil }
        for path in generation.files.values { _ = setAside(path, as: word) }
        return kept
    }

    /// Keeps the file at `path` (and its WAL) under its name with `.<word>` before `.sqlite`. What
    /// stands there, or in a companion's place, and is not a regular file (a folder) is moved along.
    private static func setAside(_ path: String, as word: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        let stem = String((path as NSString).lastPathComponent.dropLast(GenerationFile.suffix.count))
        for attempt in 1...100 {
            let target = folder + "/" + stem + "." + word + (attempt == 1 ? "" : "-\(attempt)") + GenerationFile.suffix
            // link(2) neither follows a link nor replaces anything: a rename that cannot overwrite.
            guard link(path, target) == 0 || (isThere(path) && !isRegularFile(path) && moveIfFree(path, to: target)) else {
                if errno == EEXIST || isThere(target) { continue }
                return nil
            }
            unlink(path)
            if link(path + "-wal", target + "-wal") == 0 { unlink(path + "-wal") }
            for companion in GenerationFile.companions {
                if isThere(path + companion), !isRegularFile(path + companion) { _ = moveIfFree(path + companion, to: target + companion) }
                unlink(path + companion)
            }
            try? syncFolder(folder)
            return target
        }
        return nil
    }

    /// Renames `path` to `target` unless something is there already (under the writer lock, nothing
    /// else makes names in `read/` meanwhile).
    private static func moveIfFree(_ path: String, to target: String) -> Bool {
        !isThere(target) && rename(path, target) == 0
    }

    private static func isThere(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Removes what interrupted or finished rebuilds left: manifests and projectors' files that the live
    /// generation does not name and that no process has claimed (a crashed build, a generation swapped
    /// out, a projector's file replaced by a rebuild), companions without their database, and links of
    /// interrupted swaps. `live` is the live generation when the caller has it open. Call it under the
    /// writer lock.
    static func removeLeftovers(in library: String, live known: Generation? = nil) {
        let keep: Set<String>
        switch LiveLink(library: library).read() {
        case .generation(let path) where path == known?.manifest:
            keep = Set(known!.paths)
        case .generation(let path):
            // A live manifest that cannot be read does not say which files are in use: nothing is removed.
            guard let live = try? Generation.read(path, access: .readWrite) else {
                guard !FileManager.default.fileExists(atPath: path) else { return }
                keep = []
                break
            }
            keep = Set(live.paths)
        case .missing: keep = []
        // Without a live generation to tell from the others, nothing is removed.
        case .invalid: return
        }
        let folder = library + "/" + generationsFolder
        var bases = Set<String>()
        for name in (try? FileSystem.contents(of: folder)) ?? [] where GenerationFile.kind(of: name) != nil {
            var base = name
            for companion in GenerationFile.companions where base.hasSuffix(companion) { base = String(base.dropLast(companion.count)) }
            bases.insert(folder + "/" + base)
        }
        for path in bases.subtracting(keep) { GenerationClaim.removeIfUnclaimed(path) }
        for name in (try? FileSystem.contents(of: library)) ?? [] where LiveLink.isLeftover(name) {
            unlink(library + "/" + name)
        }
    }
}
