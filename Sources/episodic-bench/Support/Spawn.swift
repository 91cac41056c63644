import Foundation

/// Runs a program and waits for it with `posix_spawn` and `waitpid`. Foundation's `Process` waits
/// by polling a run loop, which rounds every wait up to tens of milliseconds: too coarse to time a
/// command that takes a few.
enum Spawn {
    /// The `episodic` binary built beside this one.
    static func episodic() throws -> String {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("episodic").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchFailure("\(binary) is missing; build it first (`tools/build-release episodic episodic-bench`).")
        }
        return binary
    }

    /// Runs `path` with `arguments`, its output discarded; returns its exit status.
    static func run(_ path: String, _ arguments: [String]) throws -> Int32 {
        try measure(path, arguments).status
    }

    /// What a child process took: its exit status, its wall time, and its peak resident memory.
    struct Measured {
        var status: Int32
        var seconds: Double
        /// `ru_maxrss` of the child: file pages it mapped count too. Linux folds into it the peak of the
        /// memory the child had before `exec`, which `posix_spawn` shares with this process: it is the
        /// child's own only through ``measureAlone(_:_:)``.
        var peakBytes: UInt64
        /// The CPU time the child used, user and system, in seconds (`ru_utime` + `ru_stime`).
        var cpuSeconds: Double = 0
    }

    /// Runs `path` with `arguments` as ``measure(_:_:)`` does, but under GNU `time`, which forks the
    /// child from a process of a few megabytes: its peak is then the child's own, not this process's
    /// (a benchmark that generated a library holds hundreds of megabytes). The wall time includes
    /// `time`'s start, about a millisecond.
    static func measureAlone(_ path: String, _ arguments: [String]) throws -> Measured {
        let time = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: time) else {
            throw BenchFailure("\(time) is missing (apt-get install time): without it the peak would count this process's memory")
        }
        let report = NSTemporaryDirectory() + "episodic-bench-peak-\(getpid())"
        defer { unlink(report) }
        var measured = try measure(time, ["-f", "%M", "-o", report, path] + arguments)
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        guard let kilobytes = text.split(separator: "\n").last.flatMap({ UInt64($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw BenchFailure("\(time) reported no peak for \(path): \(text)")
        }
        measured.peakBytes = kilobytes * 1024
        return measured
    }

    /// Runs `path` with `arguments`, its output discarded, timed from spawn to exit.
    static func measure(_ path: String, _ arguments: [String]) throws -> Measured {
        let started = ContinuousClock.now
        return wait(for: try start(path, arguments), since: started)
    }

    /// Starts `path` with `arguments`, its output discarded; returns its pid, for ``wait(for:since:)``.
    static func start(_ path: String, _ arguments: [String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchFailure("cannot start \(path): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// Waits for the child `pid`, started at `started`.
    static func wait(for pid: pid_t, since started: ContinuousClock.Instant) -> Measured {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let seconds = (ContinuousClock.now - started).seconds
        // WIFEXITED / WEXITSTATUS, which Swift does not import.
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let cpu = [usage.ru_utime, usage.ru_stime].reduce(0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1_000_000 }
        return Measured(status: exit, seconds: seconds, peakBytes: UInt64(usage.ru_maxrss) * 1024, cpuSeconds: cpu)
    }
}
