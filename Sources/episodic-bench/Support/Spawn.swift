import Foundation

/// Runs a program and waits for it with `posix_spawn` and `waitpid`. Foundation's `Process` waits
/// by polling a run loop, which rounds every wait up to tens of milliseconds: too coarse to time a
/// command that takes a few.
enum Spawn {
    /// The `episodic` binary built beside this one.
    static func episodic() throws -> String {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("episodic").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchFailure("\(binary) is missing; build it first (`swift build -c release --static-swift-stdlib`).")
        }
        return binary
    }

    /// Runs `path` with `arguments`, its output discarded; returns its exit status.
    static func run(_ path: String, _ arguments: [String]) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchFailure("cannot start \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
