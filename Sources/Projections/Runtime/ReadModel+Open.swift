import EventLog
import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// Whether this process may change a library's read models.
public enum ReadModelAccess: Equatable, Sendable {
    case readWrite
    /// Another user's library, a read-only file system: the read models are read as they are. The
    /// reason is for messages.
    case readOnly(reason: String)

    /// How `library`'s read models can be used: read-write when its folder and its `read/` folder can
    /// be written on a file system mounted read-write, and the caller did not ask to only read. A full
    /// disk is read-write here; its writes fail.
    static func probe(_ library: String, readOnly: Bool = false) -> ReadModelAccess {
        var info = statvfs()
        if statvfs(library, &info) == 0, info.f_flag & UInt(ST_RDONLY) != 0 {
            return .readOnly(reason: readOnlyFileSystem)
        }
        for folder in [library, library + "/" + ReadModel.generationsFolder] where access(folder, W_OK) != 0 && errno != ENOENT {
            return .readOnly(reason: "\(folder) cannot be written (\(String(cString: strerror(errno))))")
        }
        return readOnly ? .readOnly(reason: "it was opened for reading only") : .readWrite
    }

    private static let readOnlyFileSystem = "its file system is mounted read-only"

    /// Nobody can change the files: SQLite may read them as immutable.
    var isReadOnlyFileSystem: Bool { self == .readOnly(reason: Self.readOnlyFileSystem) }
}

extension ReadModel {
    /// The live generation, in WAL mode: many readers, one writer, in many processes at once.
    ///
    /// - Only connections that never write map the file into memory (1 GiB at most: a read copies no
    ///   page). A connection that writes with a map grows the file with `ftruncate` before writing its
    ///   pages (SQLite's size hint, in a checkpoint or a VACUUM INTO); when the disk is full, the pages it
    ///   then cannot write stay holes, and touching a hole through a map on a full file system (tmpfs
    ///   allocates on the fault, and fails it) kills the process with SIGBUS, which no error handling can
    ///   catch. Writing connections use plain writes, so the file never has holes, and every failure is
    ///   an error code.
    /// - The WAL and the shared-memory index stay when the last connection closes (`PERSIST_WAL`, the
    ///   WAL truncated to nothing), so that a process that cannot write the folder (another user, a
    ///   read-only mount) can still open the file read-only: SQLite needs both files to exist for that.
    /// - A connection that finds the file locked waits rather than failing at once.
    ///
    /// `readOnly` opens it without writing anything, the shared-memory index included (SQLite would
    /// otherwise write it whenever its file can be written, as its owner can); `immutable` tells SQLite
    /// that nobody can change it (true on a read-only file system only), so it needs neither the WAL
    /// nor the index.
    static func openLive(_ path: String, readOnly: Bool, immutable: Bool = false) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            var persist: Int32 = 1
            _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
            if db.configuration.readonly {
                try db.execute(sql: "PRAGMA mmap_size = 1073741824; PRAGMA cache_size = -32768")
            } else {
                try db.execute(sql: "PRAGMA mmap_size = 0; PRAGMA cache_size = -32768; PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 4194304")
            }
        }
        let file = immutable ? uri(path, "immutable=1") : readOnly ? uri(path, "readonly_shm=1") : path
        return try DatabasePool(path: file, configuration: configuration)
    }

    /// A generation being built: it is thrown away if anything goes wrong, so it needs no journal and
    /// no syncs until ``install(_:)`` makes it durable.
    static func openShadow(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA mmap_size = 0; PRAGMA cache_size = -65536")
        }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// An SQLite URI for the file at `path` with `query`; the path's unusual characters escaped.
    private static func uri(_ path: String, _ query: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-._~")
        return "file:" + (path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path) + "?" + query
    }
}
