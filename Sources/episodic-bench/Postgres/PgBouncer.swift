import Foundation

/// PgBouncer in front of the benchmark's server, pooling in transaction mode (each shared-library
/// statement is a transaction of its own, so a command's connection costs no server process), on a Unix
/// socket in a folder of its own. Stopped when the benchmark exits.
struct PgBouncer {
    let folder: String
    let port = 6432
    /// The server's URL, through the pooler.
    var url: String { "postgres://postgres@/postgres?host=\(folder)&port=\(port)" }

    /// Starts PgBouncer in front of the server listening in `serverFolder` on `serverPort`; nil when it is not installed
    /// or does not start.
    static func start(in parent: String, serverFolder: String, serverPort: Int) -> PgBouncer? {
        let binary = "/usr/sbin/pgbouncer"
        guard FileManager.default.isExecutableFile(atPath: binary) else { return nil }
        let folder = parent + "/pgbouncer"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bouncer = PgBouncer(folder: folder)
        let config = """
            [databases]
            * = host=\(serverFolder) port=\(serverPort)
            [pgbouncer]
            listen_addr =
            unix_socket_dir = \(folder)
            listen_port = \(bouncer.port)
            auth_type = trust
            auth_file = \(folder)/users.txt
            pool_mode = transaction
            max_client_conn = 200
            default_pool_size = 20
            pidfile = \(folder)/pgbouncer.pid
            logfile = \(folder)/pgbouncer.log
            """
        do {
            try config.write(toFile: folder + "/pgbouncer.ini", atomically: true, encoding: .utf8)
            try #""postgres" """#.write(toFile: folder + "/users.txt", atomically: true, encoding: .utf8)
        } catch {
            return nil
        }
        // PgBouncer refuses to run as root, as PostgreSQL does.
        let asRoot = getuid() == 0
        if asRoot { _ = try? Spawn.run("/bin/chown", ["-R", "postgres:postgres", folder]) }
        let command = (asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [binary, "-d", folder + "/pgbouncer.ini"]
        guard (try? Spawn.run(command[0], Array(command.dropFirst()))) == 0 else { return nil }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: "\(folder)/.s.PGSQL.\(bouncer.port)") { usleep(20_000) }
        PgBouncer.started = folder
        atexit {
            if let text = try? String(contentsOfFile: PgBouncer.started + "/pgbouncer.pid", encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                kill(pid, SIGTERM)
            }
        }
        return bouncer
    }

    nonisolated(unsafe) private static var started = ""
}
