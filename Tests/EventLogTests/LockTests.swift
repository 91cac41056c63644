import Foundation
import Testing

@testable import EventLog

@Suite("One writer at a time")
struct LockTests {
    @Test("a second writer waits for the timeout, then names the pid holding the lock")
    func secondWriterTimesOut() throws {
        let library = TemporaryLibrary()
        let first = try library.create()
        let second = try library.open(EventLog.Options(lockTimeout: .milliseconds(200)))

        try first.write { _ in
            let started = ContinuousClock.now
            let error = #expect(throws: EventLogError.self) { try second.write { _ in } }
            #expect(ContinuousClock.now - started >= .milliseconds(200))
            guard case .locked(_, let pid, let waited)? = error else {
                Issue.record("expected .locked, got \(String(describing: error))")
                return
            }
            #expect(pid == getpid())
            #expect(waited >= 0.2)
            #expect(error?.description.contains("is locked by pid \(getpid())") == true)
        }
        // Released: the second writer gets in now.
        try second.write { try $0.append(Given.commit(Given.event("s"))) }
    }

    @Test("a writer's pid replaces a longer one an earlier writer left in LOCK, without truncating the file")
    func pidOverwritesLongerOne() throws {
        // Given a LOCK file an earlier writer left holding a longer pid than this process's
        let library = TemporaryLibrary()
        let first = try library.create()
        let second = try library.open(EventLog.Options(lockTimeout: .milliseconds(50)))
        let lock = library.path + "/LOCK"
        try Data("2147483647\n".utf8).write(to: URL(fileURLWithPath: lock))

        try first.write { _ in
            // When a second writer waits in vain, then it names this process, not the earlier one
            let error = #expect(throws: EventLogError.self) { try second.write { _ in } }
            guard case .locked(_, let pid, _)? = error else {
                Issue.record("expected .locked, got \(String(describing: error))")
                return
            }
            #expect(pid == getpid())
        }
        #expect(try String(contentsOfFile: lock, encoding: .utf8) == "\(getpid())".padding(toLength: 10, withPad: " ", startingAt: 0) + "\n")
        #expect(WriterLock.pidRecord(2_147_483_647) == Array("2147483647\n".utf8))
        #expect(WriterLock.pidRecord(7) == Array("7         \n".utf8))
    }

    @Test("a writer that lets the lock go and asks for it again waits behind a writer that queued meanwhile")
    func writersTakeTurns() throws {
        // Given a writer holding the lock, and a second writer, in another thread, queued for it
        let library = TemporaryLibrary()
        let first = try library.create()
        let second = OtherThread(log: try library.open())
        let done = DispatchSemaphore(value: 0)
        try first.write { writer in
            try writer.append(Given.commit(Given.event("first")))
            let thread = Thread {
                _ = try? second.log.write { try $0.append(Given.commit(Given.event("second"))) }
                done.signal()
            }
            thread.start()
            // Long enough for the thread to start and queue; a waiting writer polls every millisecond at most.
            usleep(200_000)
        }

        // When the first writer asks for the lock again at once
        try first.write { try $0.append(Given.commit(Given.event("first"))) }
        done.wait()

        // Then the second writer's section came in between
        #expect(try library.open().events().map(\.stream.rawValue) == ["first", "second", "first"])
    }

    @Test("readers never wait for the writer")
    func readersDoNotBlock() throws {
        let library = TemporaryLibrary()
        let log = try library.create()
        try Given.appended(3, to: "s", in: log)

        try log.write { writer in
            try writer.append(Given.commit(Given.event("s")))
            let reader = try library.open()
            #expect(reader.head == LogPosition(4))
            #expect(try reader.events(in: "s").count == 4)
        }
    }

    @Test("a writer killed while holding the lock does not leave the library locked")
    func killedHolder() throws {
        let library = TemporaryLibrary()
        _ = try library.create()
        let (process, out, _) = TestWriter.process(["append", library.path, "k", "100000"])
        try process.run()
        // Wait until it has acknowledged something, so it is inside its loop of locked appends.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("done") { seen += out.fileHandleForReading.availableData }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        let log = try library.open(EventLog.Options(lockTimeout: .seconds(2)))
        try log.write { try $0.append(Given.commit(Given.event("after"))) }
    }
}

/// A log handed to one other thread, which alone uses it from then on.
private final class OtherThread: @unchecked Sendable {
    let log: EventLog
    init(log: EventLog) { self.log = log }
}
