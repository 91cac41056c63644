import EventLog
import Foundation
import GRDB

/// A generation of the read models: a manifest, `read/NNNNNN.sqlite` (where `read.sqlite` links when it is
/// live), naming the file that holds each projector's tables and checkpoint, `read/NNNNNN-NAME.sqlite`.
///
/// A manifest is written once, before its generation is made live, and never changed. Projectors' files
/// are shared between generations: a rebuild of one projector makes a new file for it, and a new
/// manifest naming that file with the others' files as they are, so it never copies another projector's
/// rows. Connections attach every file under its projector's name (see ``ReadModel/openLive(_:projectors:readOnly:immutable:scanning:)``).
struct Generation: Equatable {
    /// The manifest's path.
    var manifest: String
    /// Each projector's file, a path in the manifest's folder, by projector name.
    var files: [String: String]
    /// Made by a build before manifests: the manifest itself holds every projector's tables and
    /// checkpoints, and `files` is empty. Such a generation is read, never written, and replaced.
    var isSingleFile = false

    /// Every file of the generation, the manifest first.
    var paths: [String] { [manifest] + files.keys.sorted().map { files[$0]! } }

    /// The manifest's folder.
    var folder: String { (manifest as NSString).deletingLastPathComponent }

    /// The first of its files, or of their companions, that is there but is not a regular file (a
    /// folder, a pipe, a link), said for a message; nil when there is none. SQLite cannot use a file
    /// with such a thing in its place, nor a rebuild replace it: the generation is damaged.
    func entryNotAFile() -> String? {
        var info = stat()
        if lstat(folder, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            return "\((folder as NSString).lastPathComponent) is \(FileSystem.kind(info)), not a folder"
        }
        for path in paths {
            for entry in [path] + GenerationFile.companions.map({ path + $0 }) {
                var info = stat()
                guard lstat(entry, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { continue }
                return "\((entry as NSString).lastPathComponent) is \(FileSystem.kind(info)), not a file"
            }
        }
        return nil
    }
}

extension Generation {
    /// The manifest's DDL, from `schemas/projections/generation.sql`.
    static func ddl() throws -> String {
        guard let url = Bundle.module.url(forResource: "generation", withExtension: "sql", subdirectory: "Schemas") else {
            throw ProjectionError.missingSchema("generation")
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Reads the manifest at `manifest` as `access` allows, without writing anything. A file names
    /// only files of its own folder, each named after its projector; anything else is damage
    /// (`SQLITE_CORRUPT`, so that the generation is set aside and rebuilt).
    static func read(_ manifest: String, access: ReadModel.ConnectionAccess) throws -> Generation {
        let queue = try DatabaseQueue(path: ReadModel.connectionPath(manifest, access: access), configuration: ReadModel.readOnlyConfiguration)
        defer { try? queue.close() }
        return try queue.readKeepingStatements { try read(manifest, from: $0) }
    }

    /// Reads the manifest at `manifest` through `db`, a connection whose main database it is.
    static func read(_ manifest: String, from db: Database) throws -> Generation {
        // Asked of SQLite directly: GRDB's `tableExists` loads the whole schema first.
        let sql = "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'projection_files')"
        guard try Bool.fetchOne(db, sql: sql) == true else {
            return Generation(manifest: manifest, files: [:], isSingleFile: true)
        }
        var files: [String: String] = [:]
        let folder = (manifest as NSString).deletingLastPathComponent
        for row in try Row.fetchAll(db, sql: "SELECT name, file FROM projection_files") {
            let name: String = row["name"], file: String = row["file"]
            guard GenerationFile.isFile(file, of: name) else {
                throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "the manifest \(manifest) names \(file) for \(name)")
            }
            files[name] = folder + "/" + file
        }
        return Generation(manifest: manifest, files: files)
    }

    /// Writes a new manifest at `manifest` (a claimed, empty file) naming `files`, in WAL mode with its WAL
    /// kept (read-only readers need it), then makes it durable.
    static func write(_ manifest: String, files: [String: String]) throws {
        let queue = try DatabaseQueue(path: manifest, configuration: ReadModel.keptWALConfiguration)
        try queue.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: try ddl())
                for (name, file) in files.sorted(by: { $0.key < $1.key }) {
                    try db.execute(
                        sql: "INSERT INTO projection_files (name, file) VALUES (?, ?)",
                        arguments: [name, (file as NSString).lastPathComponent])
                }
                return .commit
            }
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        try queue.close()
        try syncFile(manifest)
    }

    /// Claims every projector's file (the caller has claimed the manifest; see ``GenerationClaim``); nil
    /// when one of them is gone (a rebuild swapped generations and removed it meanwhile).
    func claimFiles() throws(EventLogError) -> [GenerationClaim]? {
        var claims: [GenerationClaim] = []
        for path in paths.dropFirst() {
            guard let claim = try GenerationClaim.claim(path) else { return nil }
            claims.append(claim)
        }
        return claims
    }
}

/// Makes a file's content durable.
func syncFile(_ path: String) throws(EventLogError) {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw EventLogError.failure("open", path: path, errno: errno) }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw EventLogError.failure("sync", path: path, errno: errno) }
}
