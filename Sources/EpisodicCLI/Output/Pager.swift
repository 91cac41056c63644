import Foundation

/// Long output for people goes through a pager when stdout is a terminal, as `git log` does:
/// `$PAGER` if set (empty or `cat`: none), else `less` opened at the end (newest events in view),
/// quitting at once when everything fits on one screen. Never when piped, with `--json`, or with
/// `--no-pager`.
final class Pager {
    private let process: Process
    private let savedStdout: Int32

    /// Starts the pager and sends stdout to it; nil when there should be none or it cannot start.
    static func start(unless disabled: Bool) -> Pager? {
        guard !disabled, Terminal.stdoutIsTerminal else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let command: String
        if let pager = environment["PAGER"] {
            guard !pager.trimmingSpaces.isEmpty, pager != "cat" else { return nil }
            command = pager
        } else {
            command = "less +G"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        // less: quit when it fits on one screen, keep colours, leave the screen as it was.
        process.environment = environment.merging(["LESS": environment["LESS"] ?? "FRX"]) { $1 }
        let pipe = Pipe()
        process.standardInput = pipe
        do { try process.run() } catch { return nil }
        fflush(nil)
        let saved = dup(STDOUT_FILENO)
        dup2(pipe.fileHandleForWriting.fileDescriptor, STDOUT_FILENO)
        try? pipe.fileHandleForWriting.close()
        // A reader who quits early closes the pipe: the writes that follow fail, and need not kill us.
        signal(SIGPIPE, SIG_IGN)
        return Pager(process: process, savedStdout: saved)
    }

    private init(process: Process, savedStdout: Int32) {
        self.process = process
        self.savedStdout = savedStdout
    }

    /// Ends the output: the pager sees the end of its input, and is waited for.
    func finish() {
        fflush(nil)
        dup2(savedStdout, STDOUT_FILENO)
        close(savedStdout)
        process.waitUntilExit()
    }
}
