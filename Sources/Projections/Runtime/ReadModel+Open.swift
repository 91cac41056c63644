import CSQLiteConfig
import CoreValues
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
    /// A generation's connection, in WAL mode: many readers, one writer, in many processes at once. The
    /// connection opens the manifest and attaches every projector's file under the projector's name, so
    /// that queries name tables alone (`sidebar_episodes`) and a transaction may span files.
    ///
    /// - One connection per ``ReadModel``: a `Library` is used by one thread at a time, and attaching
    ///   the files is most of what opening a library costs (a second connection, for reads, made a
    ///   one-command process 3 ms slower).
    /// - Only connections that never write map the files into memory (1 GiB each at most: a read copies
    ///   no page), unless they are `scanning`: a read of every page (verify's) would make every mapped
    ///   page resident, so these read through a page cache of 8 MiB per file instead. A connection that
    ///   writes with a map grows the file with `ftruncate` before writing its pages
    ///   (SQLite's size hint, in a checkpoint); when the disk is full, the pages it then cannot write stay
    ///   holes, and touching a hole through a map on a full file system (tmpfs allocates on the fault, and
    ///   fails it) kills the process with SIGBUS, which no error handling can catch. Writing connections
    ///   use plain writes, so the files never have holes, and every failure is an error code.
    /// - The WAL and the shared-memory index stay when the last connection closes (`PERSIST_WAL`), so
    ///   that a process that cannot write the folder (another user, a read-only mount) can still open
    ///   the files read-only, the WAL's transactions included: SQLite needs both files to exist for that.
    /// - Closing does not checkpoint the WAL either: a checkpoint syncs the WAL and the file, and the
    ///   next process's first write starts a new WAL with a synced header, four syncs per file and
    ///   sixteen of a one-command process's seventeen. A writer folds a WAL in once it is larger than
    ///   ``walLimit`` (``foldLargeWALs()``). A power cut can take the transactions since the last
    ///   checkpoint, never make the files inconsistent (`synchronous = NORMAL`): the checkpoints then
    ///   stand before the log's head, and the next command catches up.
    /// - The manifest, written once and never changed, is opened as immutable (``openManifest(_:access:writtenOnce:scanning:)``):
    ///   SQLite then neither locks it nor opens its WAL and shared-memory index. The first process to
    ///   open a file in WAL mode rebuilds its index, which every one-command process is.
    /// - A connection that finds a file locked waits (``lockWait``) rather than failing at once.
    /// - Each projector prepares every connection (the SQL functions its tables need).
    ///
    /// `readOnly` opens them without writing anything, the shared-memory indexes included (SQLite would
    /// otherwise write them whenever their files can be written, as their owner can); `immutable` tells
    /// SQLite that nobody can change them (true on a read-only file system only), so it needs neither the
    /// WALs nor the indexes.
    static func openLive(
        _ generation: Generation, projectors: [any Projector], readOnly: Bool, immutable: Bool = false, scanning: Bool = false
    ) throws -> DatabaseQueue {
        let access: ConnectionAccess = immutable ? .immutable : readOnly ? .readOnly : .readWrite
        let database = try openManifest(generation.manifest, access: access, scanning: scanning)
        try attach(generation, projectors: projectors, to: database, access: access, scanning: scanning)
        return database
    }

    /// How long a connection that finds a file locked waits for it (seconds) before failing.
    static let lockWait: TimeInterval = 10

    /// The first half of ``openLive(_:projectors:readOnly:immutable:scanning:)``: a connection to the
    /// manifest alone, through which the manifest can be read before its files are claimed and attached.
    /// `writtenOnce` opens the manifest itself as immutable, whatever `access` says of the files attached
    /// later: true only for a manifest known to be one (``Generation/write(_:files:)`` writes it once and
    /// never changes it), not a generation of a build before manifests, which is a single file that changes.
    static func openManifest(
        _ manifest: String, access: ConnectionAccess, writtenOnce: Bool = false, scanning: Bool = false
    ) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = access != .readWrite
        configuration.busyMode = .timeout(lockWait)
        // No table of a read model has a foreign key: a statement fewer for every process to run.
        configuration.foreignKeysEnabled = false
        configuration.prepareDatabase { db in
            if !db.configuration.readonly {
                let code = csqlite_keep_wal_on_close(db.sqliteConnection)
                guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
            }
            try configure("main", of: db, scanning: scanning)
        }
        return try DatabaseQueue(path: connectionPath(manifest, access: writtenOnce ? .immutable : access), configuration: configuration)
    }

    /// The second half: attaches each projector's file of `generation` to `database`, opened by
    /// ``openManifest(_:access:scanning:)`` on its manifest with the same `access`.
    static func attach(
        _ generation: Generation, projectors: [any Projector], to database: DatabaseQueue, access: ConnectionAccess, scanning: Bool = false
    ) throws {
        try database.inDatabase { db in
            for (name, file) in generation.files.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "ATTACH DATABASE ? AS \(schema(name))", arguments: [connectionPath(file, access: access)])
                try configure(schema(name), of: db, scanning: scanning)
            }
            for projector in projectors { try projector.prepare(db) }
        }
    }

    /// Sets the database `name` of `db`'s connection as the type's description says. Setting its page
    /// cache reads its schema: a file that is not a database, or that this connection cannot read,
    /// fails here, while the connection is opened, not at its first query.
    private static func configure(_ name: String, of db: Database, scanning: Bool) throws {
        var persist: Int32 = 1
        _ = sqlite3_file_control(db.sqliteConnection, name, SQLITE_FCNTL_PERSIST_WAL, &persist)
        if scanning {
            try db.execute(sql: "PRAGMA \(name).mmap_size = 0; PRAGMA \(name).cache_size = -8192")
        } else if db.configuration.readonly {
            try db.execute(sql: "PRAGMA \(name).mmap_size = \(1 << 30); PRAGMA \(name).cache_size = -32768")
        } else {
            try db.execute(sql: """
                PRAGMA \(name).mmap_size = 0; PRAGMA \(name).cache_size = -32768; PRAGMA \(name).synchronous = NORMAL;
                PRAGMA \(name).journal_size_limit = 4194304
                """)
        }
    }

    /// How large a projector's WAL grows (bytes) before the writer that grew it folds it into the file
    /// and empties it: 512 KiB, 128 pages. Connections do not checkpoint when they close (see
    /// ``openLive(_:projectors:readOnly:immutable:scanning:)``), and SQLite's own checkpoints cannot
    /// bound a WAL written by one process after another: each process's first connection reads the WAL
    /// whole to index it, and an index made that way forgets what was checkpointed, so the WAL would
    /// never start over, and every process would read all of it.
    ///
    /// The limit weighs that reading (a checksum of every byte: up to half the work of the thread that
    /// opens the read models, at 1 MiB) against the folds (each syncs the WAL and the file). A retitle on
    /// the benchmark's 1,000,000-event library, spawn to exit, p50 in one loop of 600 rounds: 7.95 ms at
    /// 1 MiB; 7.80, 7.76, 7.77, 7.85 and 8.13 ms at 768, 512, 384, 256 and 128 KiB.
    static let walLimit = 1 << 19

    /// Folds into its file, and empties, each projector's WAL larger than ``walLimit``. Without waiting:
    /// a WAL that another process is reading stays for the next writer. Its failures are left there too.
    func foldLargeWALs() {
        guard access == .readWrite, !isTemporary else { return }
        let large = opened.generation.files.filter { _, file in
            var info = stat()
            return stat(file + "-wal", &info) == 0 && Int(info.st_size) > Self.walLimit
        }
        guard !large.isEmpty else { return }
        try? database.inDatabase { db in
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(Int(Self.lockWait * 1000))") }
            for name in large.keys.sorted() { try db.execute(sql: "PRAGMA \(Self.schema(name)).wal_checkpoint(TRUNCATE)") }
        }
    }

    /// The files of a generation being built, attached to one connection (its main database is in
    /// memory): they are thrown away if anything goes wrong, so they need no journal and no syncs until
    /// the build is finished. The page cache, 64 MiB, is shared out between them.
    static func openShadow(_ files: [String: String], projectors: [any Projector]) throws -> DatabaseQueue {
        var configuration = Configuration()
        let cache = 65_536 / max(files.count, 1)
        configuration.prepareDatabase { db in
            for (name, file) in files.sorted(by: { $0.key < $1.key }) {
                let schema = Self.schema(name)
                try db.execute(sql: "ATTACH DATABASE ? AS \(schema)", arguments: [file])
                try db.execute(sql: """
                    PRAGMA \(schema).journal_mode = OFF; PRAGMA \(schema).synchronous = OFF; PRAGMA \(schema).mmap_size = 0;
                    PRAGMA \(schema).cache_size = -\(cache)
                    """)
            }
            for projector in projectors { try projector.prepare(db) }
        }
        return try DatabaseQueue(configuration: configuration)
    }

    /// The schema a projector's file is attached under: its name, dashes made underscores, so that it is
    /// an identifier SQL takes unquoted (names are lowercase letters and dashes: see
    /// ``GenerationFile/isProjectorName(_:)``), as GRDB writes schema names.
    static func schema(_ name: String) -> String { String(name.map { $0 == "-" ? "_" : $0 }) }

    /// How a connection may use a file.
    enum ConnectionAccess {
        case readWrite
        /// Without writing anything, the shared-memory index included.
        case readOnly
        /// Nobody can change the file (a read-only file system).
        case immutable
    }

    /// What SQLite is given to open `path` with `access`: the path, or a URI that says how.
    static func connectionPath(_ path: String, access: ConnectionAccess) -> String {
        switch access {
        case .readWrite: path
        case .readOnly: uri(path, "readonly_shm=1")
        case .immutable: uri(path, "immutable=1")
        }
    }

    /// `connectionPath(_:access:)` for a library's read models opened with `access`.
    static func connectionPath(_ path: String, access: ReadModelAccess) -> String {
        connectionPath(path, access: access.isReadOnlyFileSystem ? .immutable : access == .readWrite ? .readWrite : .readOnly)
    }

    /// A connection that only reads, waiting rather than failing on a locked file.
    static var readOnlyConfiguration: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(lockWait)
        return configuration
    }

    /// A connection whose file keeps its WAL and shared-memory index when it closes, for read-only readers.
    static var keptWALConfiguration: Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            var persist: Int32 = 1
            _ = sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        }
        return configuration
    }

    /// An SQLite URI for the file at `path` with `query`; every byte of the path but letters, digits and
    /// `/-._~` escaped. Byte by byte: Foundation's percent-encoding costs a one-command process a quarter
    /// of a millisecond the first time, bridging the string.
    private static func uri(_ path: String, _ query: String) -> String {
        var text = Array("file:".utf8)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                text.append(byte)
            default:
                text.append(UInt8(ascii: "%"))
                text.append(contentsOf: [byte].lowercaseHex.utf8)
            }
        }
        return String(decoding: text, as: UTF8.self) + "?" + query
    }
}
