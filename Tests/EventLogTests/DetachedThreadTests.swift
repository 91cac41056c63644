import Foundation
import TestSupport
import Testing

@testable import EventLog

/// Work started on a thread of its own runs there, while the caller goes on.
@Suite("A detached thread")
struct DetachedThreadTests {
    @Test("runs its work on another thread, after start has returned to a caller that goes on")
    func runsElsewhere() {
        // Given work that waits for the caller to go on, and records the thread it ran on
        let callerWentOn = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let ranOn = ThreadRecord()

        // When it is started
        DetachedThread.start {
            ranOn.sawCallerGoOn = callerWentOn.wait(timeout: .now() + 5) == .success
            ranOn.thread = pthread_self()
            done.signal()
        }
        callerWentOn.signal()

        // Then it ran, not on the caller's thread, and while the caller went on (run here, before
        // start returned, it would have waited in vain)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(ranOn.sawCallerGoOn)
        #expect(ranOn.thread.map { pthread_equal($0, pthread_self()) == 0 } == true)
    }

    @Test(
        "may run on every CPU its caller may, once it runs: kept off the caller's only to start",
        .enabled(if: try Need.met(ProcessInfo.processInfo.activeProcessorCount > 1, "one CPU: nowhere else to start a thread")))
    func freeOnceStarted() throws {
        // Given a caller allowed on several CPUs
        let callers = try #require(Self.allowedCPUs())
        let done = DispatchSemaphore(value: 0)
        let ranOn = ThreadRecord()

        // When work is started on a thread of its own
        DetachedThread.start {
            ranOn.allowedCPUs = Self.allowedCPUs()
            done.signal()
        }

        // Then the thread may run where the caller may
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(ranOn.allowedCPUs == callers)
    }

    @Test("has the program's zero data faulted in writable before the first thread starts")
    func zeroDataResident() throws {
        // Given a process, which this test's is
        // When work is started on a thread of its own
        let done = DispatchSemaphore(value: 0)
        DetachedThread.start { done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)

        // Then every page of the program's zero data (the mapping that follows its file's last
        // writable one) is private memory of its own, none left to fault in
        let zeroData = try #require(Self.programZeroDataMapping())
        #expect(zeroData.sizeKB > 0)
        #expect(zeroData.anonymousKB == zeroData.sizeKB)
    }

    /// From `/proc/self/smaps`: the mapping just after the program file's last writable one, when it
    /// has no file (the zero data past the file's last page), with its size and its private pages.
    static func programZeroDataMapping() -> (sizeKB: Int, anonymousKB: Int)? {
        guard let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            let smaps = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8)
        else { return nil }
        var programEnd: Substring?
        var found: (start: Substring, sizeKB: Int?, anonymousKB: Int?)?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), fields.count >= 5, !range.hasSuffix(":") {
                if found != nil { break }
                let bounds = range.split(separator: "-")
                if fields.count >= 6, fields[5...].joined(separator: " ") == program, fields[1].hasPrefix("rw") {
                    programEnd = bounds[1]
                } else if let end = programEnd, fields.count == 5, bounds[0] == end {
                    found = (bounds[0], nil, nil)
                } else {
                    programEnd = nil
                }
            } else if found != nil, fields.count >= 2, let kilobytes = Int(fields[1]) {
                if fields[0] == "Size:" { found?.sizeKB = kilobytes }
                if fields[0] == "Anonymous:" { found?.anonymousKB = kilobytes }
            }
        }
        guard let size = found?.sizeKB, let anonymous = found?.anonymousKB else { return nil }
        return (size, anonymous)
    }

    /// The CPUs the calling thread may run on, as Linux lists them (`0-1`, `0,2-3`).
    static func allowedCPUs() -> String? {
        guard let status = try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }?
            .dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
    }

    /// What the work saw: written before `done` is signalled, read after it is waited for.
    final class ThreadRecord: @unchecked Sendable {
        var thread: pthread_t?
        var sawCallerGoOn = false
        var allowedCPUs: String?
    }
}

/// A signal from one thread to another that waits for it.
@Suite("A handoff")
struct HandoffTests {
    @Test(
        "the waiter returns once the signal is given, and sees what was written before it: given first, while it watches, or once it sleeps",
        arguments: [0, 200, 20_000])
    func waiterSeesWhatWasWritten(microsecondsBeforeGiving: Int) {
        // Given a waiter and a value written before the signal
        let handoff = Handoff()
        let value = ThreadWritten()

        // When the signal is given after a while, on another thread
        DetachedThread.start {
            usleep(UInt32(microsecondsBeforeGiving))
            value.number = 42
            handoff.give()
        }
        handoff.wait()

        // Then the waiter sees the value
        #expect(value.number == 42)
    }

    /// Written by one thread before the signal, read by the waiter after it.
    final class ThreadWritten: @unchecked Sendable {
        var number = 0
    }
}
