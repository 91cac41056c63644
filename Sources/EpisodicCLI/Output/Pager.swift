import Foundation

/// Long output for people goes through a pager when stdout is a terminal, as `git log` does:
/// `$PAGER` if set (empty or `cat`: none), else `less` opened at the end (newest events in view),
/// quitting at once when everything fits on one screen. Never when piped, with `--json`, or with
/// `--no-pager`.
///
/// The pager is started as git starts it: in this process's own process group, which is the
/// terminal's foreground group, so that it may read the keys from the terminal. (Foundation's `Process`
/// puts its child in a group of its own: `less` reading the terminal from there is stopped by the
/// kernel, and the screen stays blank with `q` doing nothing.)
final class Pager {
    private let pid: pid_t
    private let savedStdout: Int32

    /// Starts the pager and sends stdout to it; nil when there should be none or it cannot start.
    static func start(unless disabled: Bool) -> Pager? {
        guard !disabled, Terminal.stdoutIsTerminal else { return nil }
        let command: String
        if let pager = ProcessInfo.processInfo.environment["PAGER"] {
            guard !pager.trimmingSpaces.isEmpty, pager != "cat" else { return nil }
            command = pager
        } else {
            command = "less +G"
        }
        // less: quit when it fits on one screen, keep colours, leave the screen as it was.
        setenv("LESS", "FRX", 0)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        let (reading, writing) = (ends[0], ends[1])
        // Neither end is for other children this process starts; the pager gets its own copy as stdin.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, reading, STDIN_FILENO)
        let words: [String] = ["/bin/sh", "-c", command]
        let argv = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        close(reading)
        guard spawned == 0 else {
            close(writing)
            return nil
        }
        fflush(nil)
        let saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0)
        dup2(writing, STDOUT_FILENO)
        close(writing)
        // A reader who quits early closes the pipe: the writes that follow fail, and need not kill us.
        signal(SIGPIPE, SIG_IGN)
        // Ctrl-C reaches the whole foreground group: the pager takes it (less stops waiting for more),
        // and the output goes on to the end, as with git.
        signal(SIGINT, SIG_IGN)
        return Pager(pid: pid, savedStdout: saved)
    }

    private init(pid: pid_t, savedStdout: Int32) {
        self.pid = pid
        self.savedStdout = savedStdout
    }

    /// Ends the output: the pager sees the end of its input, and is waited for.
    func finish() {
        fflush(nil)
        dup2(savedStdout, STDOUT_FILENO)
        close(savedStdout)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        signal(SIGINT, SIG_DFL)
    }
}
