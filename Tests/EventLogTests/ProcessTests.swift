import Foundation
import Testing

@testable import EventLog

/// Real child processes (the `eventlog-test-writer` helper) appending to one library.
@Suite("Processes")
struct ProcessTests {
    @Test("two processes appending at once: no commit is interleaved, and every acknowledged one is there")
    func twoWriters() throws {
        let library = TemporaryLibrary()
        _ = try library.create()
        let writers = ["A", "B"].map { TestWriter.process(["append", library.path, $0, "60", "3"]) }
        for (process, _, _) in writers { try process.run() }
        let outputs = writers.map { (process, out, err) -> String in
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
            return text
        }

        let acknowledged = outputs.flatMap(TestWriter.acknowledged(in:))
        #expect(acknowledged.count == 120)
        let events = try library.open().events()
        #expect(events.count == 360)
        #expect(events.map(\.position.rawValue) == Array(1...360))
        for done in acknowledged {
            // Each commit's three events sit together, in order, with the positions it was told.
            let commit = events[Int(done.first - 1)..<Int(done.last)]
            #expect(done.last - done.first == 2)
            #expect(commit.allSatisfy { $0.stream.rawValue == "writer-\(done.tag)" && $0.json.contains(#""i":\#(done.i),"#) })
            #expect(commit.map(\.json).map { $0.contains(#""j":1"#) } == [true, false, false])
            #expect(Set(commit.map(\.commandID)).count == 1)
        }
        // Both really ran at the same time: their commits alternate somewhere in the log.
        let order = events.map(\.stream.rawValue)
        #expect(zip(order, order.dropFirst()).contains { $0 != $1 })
        #expect(try library.open().events(in: "writer-A").map(\.streamVersion) == Array(1...180))
    }

    @Test("a writer killed with SIGKILL mid-loop loses nothing it reported as done", arguments: [1, 2, 3])
    func killedWriter(round: Int) throws {
        let library = TemporaryLibrary()
        _ = try library.create()
        let (process, out, _) = TestWriter.process(["append", library.path, "K", "100000", "\(round)"])
        try process.run()
        var output = Data()
        let stopAfter = 15 + round * 10
        while TestWriter.acknowledged(in: String(decoding: output, as: UTF8.self)).count < stopAfter {
            output += out.fileHandleForReading.availableData
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        output += out.fileHandleForReading.readDataToEndOfFile()
        let acknowledged = TestWriter.acknowledged(in: String(decoding: output, as: UTF8.self))

        let log = try library.open()
        try log.write { _ in }  // recovery, if the kill tore a frame
        let events = try library.open().events()
        #expect(UInt64(events.count) >= acknowledged.last!.last)
        for done in acknowledged {
            let commit = events[Int(done.first - 1)..<Int(done.last)]
            #expect(commit.allSatisfy { $0.json.contains(#""i":\#(done.i),"#) })
        }
        #expect(try library.open().verify().isClean)
        #expect(process.terminationReason == .uncaughtSignal)
    }

    @Test("a library path that cannot be written is refused with the reason, and nothing changes")
    func notWritable() throws {
        guard getuid() == 0 else {
            // Without root, chmod is enough to take away write access.
            let library = TemporaryLibrary()
            _ = try library.create()
            chmod(library.path, 0o555)
            defer { chmod(library.path, 0o755) }
            #expect(throws: EventLogError.self) { try library.open().write { _ in } }
            return
        }
        // As root, file permissions do not stop us: ask the helper to run as `nobody`.
        let library = TemporaryLibrary()
        _ = try library.create()
        chmod(library.folder, 0o755)
        let before = try library.snapshot()
        defer { try? FileManager.default.removeItem(atPath: library.folder + "/eventlog-test-writer") }

        let write = try TestWriter.run(["write", library.path], as: "65534", copyTo: library.folder)
        #expect(write.status == 3)
        #expect(write.err.contains("cannot write to the library at \(library.path)"), "\(write.err)")
        #expect(write.err.contains("Permission denied"))

        let create = try TestWriter.run(["create", library.folder + "/elsewhere/new"], as: "65534", copyTo: library.folder)
        #expect(create.status == 3)
        #expect(create.err.contains("cannot write to the library"), "\(create.err)")
        #expect(!FileManager.default.fileExists(atPath: library.folder + "/elsewhere"))
        #expect(try library.snapshot() == before)
    }
}
