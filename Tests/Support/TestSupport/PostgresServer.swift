import Foundation

/// A real PostgreSQL server for this process: `initdb` and `pg_ctl` (as the `postgres` user when run
/// as root, which PostgreSQL refuses to run as), in a temporary folder, listening only on a Unix socket
/// there. Stopped, and its folder removed, when the process exits. The tests' server (``shared``) runs
/// with `fsync=off`; a benchmark starts its own with fsync on (``start(fsync:)``). When no server can
/// be started, ``unavailable`` says why and the tests that need one are skipped, saying so, or fail
/// where they must run (``isAvailable``).
public final class PostgresServer: Sendable {
    public static let shared: PostgresServer? = start(fsync: false)
    /// Why no server could be started; nil when one runs.
    nonisolated(unsafe) public static var unavailable: String?

    /// Whether ``shared`` runs, for `.enabled(if: try PostgresServer.isAvailable)`. Where none could be
    /// started, the tests that need one are skipped, saying why, except under CI or with
    /// `EPISODIC_REQUIRE_POSTGRES=1`, where they fail (``Need``).
    public static var isAvailable: Bool {
        get throws {
            let required = ProcessInfo.processInfo.environment["EPISODIC_REQUIRE_POSTGRES"] == "1" ? "EPISODIC_REQUIRE_POSTGRES=1" : nil
            return try Need.met(shared != nil, "no PostgreSQL server could be started: \(unavailable ?? "no server")", requiredBy: required)
        }
    }

    /// Whether ``shared`` also speaks TLS (``tlsURL``), under the same rule as ``isAvailable``.
    public static var speaksTLS: Bool {
        get throws {
            try isAvailable && Need.met(shared?.tlsURL != nil, "the PostgreSQL server has no TLS: openssl could not make its certificate")
        }
    }

    public let folder: String
    public let port: Int
    /// The server's connection URL, as the `postgres` superuser, over the Unix socket in ``folder``.
    public let url: String
    /// The same server over TCP on 127.0.0.1 with `sslmode=require`; nil when no certificate could be made.
    public let tlsURL: String?
    /// The folder of the server's programs (`pg_test_fsync` is there too).
    public let binaries: String

    /// The server's data folder (`pg_hba.conf`, `standby.signal` go there).
    public var data: String { folder + "/data" }
    /// How this server is started with `pg_ctl`, but for the action and `-w`: for ``stop(mode:waiting:)``
    /// and ``startAgain(waiting:)``.
    private let control: [String]

    private init(folder: String, binaries: String, port: Int, tls: Bool, control: [String]) {
        self.folder = folder
        self.binaries = binaries
        self.port = port
        self.control = control
        url = "postgres://postgres@/postgres?host=\(folder)&port=\(port)"
        tlsURL = tls ? "postgres://postgres@127.0.0.1:\(port)/postgres?sslmode=require" : nil
    }

    /// A schema name no other test uses.
    public static func freshSchema() -> String { "lib_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }

    /// Starts a server of this process's own; nil, with ``unavailable`` saying why, when it cannot.
    public static func start(fsync: Bool) -> PostgresServer? {
        guard let bin = binaries() else {
            unavailable = "no initdb and pg_ctl under /usr/lib/postgresql (install the postgresql package)"
            return nil
        }
        var template = Array((NSTemporaryDirectory() + "episodic-postgres-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { unavailable = "cannot make a temporary folder"; return nil }
        let folder = String(cString: made)
        let asRoot = getuid() == 0
        if asRoot {
            guard run("/bin/chown", ["postgres:postgres", folder]) == 0 else {
                unavailable = "running as root, and there is no postgres user to run the server as"
                return nil
            }
        }
        let data = folder + "/data"
        let initdb = [bin + "/initdb", "-D", data, "--no-sync", "-A", "trust", "-U", "postgres", "-E", "UTF8"]
        guard run(asRoot, initdb) == 0 else { unavailable = "initdb failed in \(folder)"; return nil }
        guard let port = freePort() else { unavailable = "no free TCP port on 127.0.0.1"; return nil }
        // TLS over TCP on 127.0.0.1 too, with a certificate made for the run, when openssl is there.
        let certificate = run(asRoot, [
            "/usr/bin/openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", data + "/server.key",
            "-out", data + "/server.crt", "-days", "2", "-subj", "/CN=localhost",
        ]) == 0 && run(asRoot, ["/bin/chmod", "600", data + "/server.key"]) == 0
        // A backend notices within 100 ms that its client was killed, even while it waits.
        let options = "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=\(fsync ? "on" : "off") "
            + "-c max_connections=60 -c client_connection_check_interval=100" + (certificate ? " -c ssl=on" : "")
        let control = (asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [bin + "/pg_ctl", "-D", data, "-l", folder + "/server.log", "-o", options]
        guard run(control[0], Array(control.dropFirst()) + ["-w", "start"]) == 0 else {
            unavailable = "pg_ctl could not start a server (see \(folder)/server.log)"
            return nil
        }
        let stop = (asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [bin + "/pg_ctl", "-D", data, "-m", "immediate", "stop"]
        stopLock.withLock {
            if started.isEmpty {
                atexit {
                    for (stop, folder) in PostgresServer.stopLock.withLock({ PostgresServer.started }) {
                        _ = PostgresServer.run(stop[0], Array(stop.dropFirst()))
                        try? FileManager.default.removeItem(atPath: folder)
                    }
                }
            }
            started.append((stop, folder))
        }
        return PostgresServer(folder: folder, binaries: bin, port: port, tls: certificate, control: control)
    }

    /// Stops the server with `pg_ctl stop -m mode` (`smart` waits for its clients to leave, `fast` ends
    /// them, `immediate` is a crash); without `waiting`, returns while it stops. Its exit status.
    @discardableResult
    public func stop(mode: String = "fast", waiting: Bool = true) -> Int32 {
        let command = Array(control.dropFirst()) + ["-m", mode, waiting ? "-w" : "-W", "stop"]
        if waiting { return Self.run(control[0], command) }
        return Self.spawn(control[0], command) == nil ? -1 : 0
    }

    /// Starts the server stopped by ``stop(mode:waiting:)`` again, as it was started; `waiting` until it
    /// accepts connections. Its exit status.
    @discardableResult
    public func startAgain(waiting: Bool = true) -> Int32 {
        Self.run(control[0], Array(control.dropFirst()) + [waiting ? "-w" : "-W", "start"])
    }

    /// A TCP port nobody listens on now, from the system.
    private static func freePort() -> Int? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    private var psql: String { binaries + "/psql" }

    /// Starts `psql` running `sql` against this server, as a separate client process, and returns its
    /// pid without waiting: for a client killed in the middle of what it runs.
    public func startClient(running sql: String) -> pid_t? {
        Self.spawn(psql, ["-h", folder, "-p", String(port), "-U", "postgres", "-d", "postgres", "-c", sql])
    }
    /// Runs `sql` with `psql` as `role` (the superuser by default) and waits; its exit status (0: it all ran).
    @discardableResult
    public func run(sql: String, as role: String = "postgres") -> Int32 {
        Self.run(psql, ["-h", folder, "-p", String(port), "-U", role, "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-c", sql])
    }

    /// Each started server's stop command and folder, for the exit handler.
    nonisolated(unsafe) private static var started: [([String], String)] = []
    private static let stopLock = NSLock()

    private static func binaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        return versions.reversed().map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") }
    }

    private static func run(_ asRoot: Bool, _ command: [String]) -> Int32 {
        asRoot ? run("/usr/sbin/runuser", ["-u", "postgres", "--"] + command) : run(command[0], Array(command.dropFirst()))
    }

    /// Runs `executable` and waits for it, with posix_spawn and waitpid rather than Foundation's
    /// `Process`, which can hang waiting for a child here (during a static initializer, while tests run
    /// on other threads). Returns its exit status, or -1.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        guard let pid = spawn(executable, arguments) else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        // Exited normally: the status's exit code; killed: -1.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
    }

    /// Starts `executable` with its output going to /dev/null; its pid, or nil.
    static func spawn(_ executable: String, _ arguments: [String]) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        return posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 ? pid : nil
    }
}
