import Foundation
import Testing

/// How much of a command's work is done while it holds the library's writer lock, seen from outside
/// as another writer sees it. The test holds the lock whenever the command does not: each time the
/// command queues for it (it holds the lock's turnstile, `WriterLock`), the test notes the command's
/// CPU time and lets the lock go, then takes it back as soon as the command lets it go, and notes its
/// CPU time again. CPU time, not wall time, so that a loaded machine changes nothing.
enum LockWatch {
    /// What the command did, its CPU seconds in all, and those spent while it held the lock.
    struct Measured {
        var run: CLI.Run
        var total: Double
        var locked: Double
    }

    static func measure(_ cli: CLI, _ arguments: [String]) throws -> Measured {
        let fd = open(cli.library + "/LOCK", O_RDWR | O_CLOEXEC)
        try #require(fd >= 0 && flock(fd, LOCK_EX) == 0)
        defer { close(fd) }
        cli.runAs = ["/bin/sh", "-c", "exec /usr/bin/time -f 'cpu-seconds %U %S' \"$0\" \"$@\""]
        defer { cli.runAs = [] }
        let running = try cli.start(arguments + ["--lock-timeout", "600"])
        let command = try child(of: running.process)
        var locked = 0.0
        var releasedAt: Double?
        while true {
            guard try queued(fd, while: running.process) else { break }
            let before = try #require(cpuSeconds(command))
            flock(fd, LOCK_UN)
            #expect(flock(fd, LOCK_EX) == 0)
            // Taken back: the command let it go, or ended holding it.
            guard let after = cpuSeconds(command) else {
                releasedAt = before
                break
            }
            locked += after - before
        }
        let run = running.finish()
        let line = try #require(run.err.split(separator: "\n").last { $0.hasPrefix("cpu-seconds ") }, "\(run.err)")
        let total = line.split(separator: " ").dropFirst().compactMap { Double($0) }.reduce(0, +)
        if let releasedAt { locked += total - releasedAt }
        return Measured(run: run, total: total, locked: locked)
    }

    /// Waits until another process queues for the lock `fd` holds (true), or `process` ends (false).
    private static func queued(_ fd: Int32, while process: Process) throws -> Bool {
        let deadline = Date().addingTimeInterval(600)
        while Date() < deadline {
            var turnstile = flock()
            turnstile.l_type = Int16(F_WRLCK)
            turnstile.l_whence = Int16(SEEK_SET)
            turnstile.l_start = 0
            turnstile.l_len = 1
            // F_OFD_GETLK (36): who holds the turnstile a writer takes before it waits for the lock.
            try #require(fcntl(fd, 36, &turnstile) == 0)
            if turnstile.l_type != Int16(F_UNLCK) { return true }
            if !process.isRunning { return false }
            usleep(1_000)
        }
        Issue.record("the command neither queued for the lock nor ended in 600 s")
        return false
    }

    /// The one child of `process` (`/usr/bin/time`'s command).
    private static func child(of process: Process) throws -> Int32 {
        let pid = process.processIdentifier
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            if let child = children.split(separator: " ").first.flatMap({ Int32($0) }) { return child }
            usleep(1_000)
        }
        throw ChildNotStarted()
    }

    private struct ChildNotStarted: Error {}

    /// The user and system CPU seconds `pid` has used, from `/proc`; nil once it is gone.
    private static func cpuSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")")
        else { return nil }
        // After the name: state, then ppid ... utime and stime, the 12th and 13th fields.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
