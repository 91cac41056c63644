import Foundation
import Testing

@testable import EventLog

/// Real writer processes (the `eventlog-test-writer` helper) killed with SIGKILL while they compact a
/// segment they sealed.
@Suite("Kills during automatic compaction")
struct CompactionKillTests {
    /// Commits each helper makes at most, and events in each: about one segment of 64 KiB every dozen commits.
    static let commits = 400
    static let eventsPerCommit = 50

    @Test("a writer killed while it compacts loses no acknowledged commit; the log verifies, and the next writer finishes the work")
    func killedWhileCompacting() throws {
        var killedMidCompaction = 0, rounds = 0
        for round in 1...20 where killedMidCompaction < 3 {
            // Given a writer appending commits, sealing and compacting segments as it goes
            let library = TemporaryLibrary()
            _ = try library.create()
            let log = library.path + "/log"
            let (process, out, _) = TestWriter.process(["append", library.path, "R\(round)", "\(Self.commits)", "\(Self.eventsPerCommit)"])
            try process.run()

            // When it is killed the moment a compaction's new file shows in log/
            while process.isRunning {
                if !Self.compactionFiles(in: log).isEmpty {
                    kill(process.processIdentifier, SIGKILL)
                    break
                }
            }
            process.waitUntilExit()
            let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            guard process.terminationReason == .uncaughtSignal else { continue }
            rounds += 1
            let acknowledged = TestWriter.acknowledged(in: output)
            if !Self.compactionFiles(in: log).isEmpty { killedMidCompaction += 1 }

            // Then a reader finds every acknowledged commit, and the log verifies, leftover and all
            let found = try library.open().events()
            #expect(UInt64(found.count) >= acknowledged.last?.last ?? 0)
            for done in acknowledged {
                let commit = found[Int(done.first - 1)..<Int(done.last)]
                #expect(commit.allSatisfy { $0.json.contains(#""i":\#(done.i),"#) }, "round \(round), commit \(done.i)")
            }
            #expect(try library.open().verify().isClean, "round \(round)")

            // And the next writer removes the leftover and compacts what was left sealed, changing no event
            let writer = try library.open(EventLog.Options(segmentSizeLimit: 64 << 10))
            try writer.write { _ in }
            #expect(Self.compactionFiles(in: log).isEmpty)
            #expect(writer.segmentSummaries.dropLast().allSatisfy { $0.isCompacted }, "round \(round)")
            let reopened = try library.open()
            #expect(try reopened.events() == found)
            #expect(try reopened.events(in: StreamID(rawValue: "writer-R\(round)")!) == found)
            #expect(try reopened.verify().isClean, "round \(round)")
        }
        // A kill that came after the rename proves less: at least one must have left the new file behind.
        print("kills during automatic compaction: \(rounds) writers killed, \(killedMidCompaction) with the new file left behind")
        #expect(killedMidCompaction > 0, "no kill landed while a compaction's file was being written")
    }

    static func compactionFiles(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".compacting") }
    }
}
