import Foundation
import Synchronization
import Testing

@testable import EventLog

/// Readers never take the lock, so a compaction may rename new files over the segments they listed at
/// any moment. They read on through it: never a report of damage on an intact log, never a hang.
@Suite("Readers beside compaction")
struct CompactionReadersTests {
    /// 20 streams of 60 events each, in sealed segments of 8 KiB, compacted once.
    func library() throws -> (TemporaryLibrary, EventLog) {
        let library = TemporaryLibrary()
        let log = try library.create(EventLog.Options(segmentSizeLimit: 8 << 10, automaticCompaction: nil))
        try log.write { writer in
            for i in 0..<1200 {
                try writer.append(Given.commit(Given.event(StreamID(rawValue: "s\(i % 20)")!, "Step", #"{"i":\#(i)}"#)))
            }
            _ = try writer.compact(CompactionSettings(frameContentSize: 4096, level: 4))
        }
        return (library, log)
    }

    @Test("thousands of reads beside compactions that replace every sealed segment again and again: no failure, none slow")
    func readersReadOn() throws {
        let (library, log) = try library()
        let head = log.head
        let path = library.path
        let stop = Atomic<Bool>(false)
        let compactions = Atomic<Int>(0)
        let compactor = Thread {
            guard let log = try? EventLog(at: path, options: EventLog.Options(automaticCompaction: nil)) else { return }
            var level: Int32 = 3
            while !stop.load(ordering: .relaxed) {
                level = level == 3 ? 9 : 3
                let settings = CompactionSettings(frameContentSize: level == 3 ? 2048 : 16384, level: level, includeCompacted: true)
                _ = try? log.write { writer in try writer.compact(settings) }
                compactions.add(1, ordering: .relaxed)
            }
        }
        compactor.start()
        defer { stop.store(true, ordering: .relaxed) }

        let failures = Mutex<[String]>([])
        let slowest = Mutex<Double>(0)
        DispatchQueue.concurrentPerform(iterations: 2) { reader in
            var random = SystemRandomNumberGenerator()
            var log: EventLog?
            for round in 0..<1500 {
                let started = ContinuousClock.now
                do {
                    // A reader opened once and refreshed, as a long-lived one is, or opened afresh, as a command is.
                    if log == nil || round % 4 == 0 { log = try EventLog(at: path) } else { try log!.refresh() }
                    let log = log!
                    switch round % 3 {
                    case 0:
                        let stream = StreamID(rawValue: "s\(Int.random(in: 0..<20, using: &random))")!
                        var count = 0
                        try log.read(stream: stream) { _ in count += 1 }
                        if count != 60 { failures.withLock { $0.append("stream \(stream) read \(count) events") } }
                    case 1:
                        let from = UInt64.random(in: 1...head.rawValue, using: &random)
                        var expected = from
                        try log.read(from: LogPosition(from), through: LogPosition(min(from + 200, head.rawValue))) { envelope in
                            if envelope.position.rawValue != expected { failures.withLock { $0.append("position \(envelope.position), expected \(expected)") } }
                            expected += 1
                        }
                    default:
                        _ = try log.identity(at: LogPosition(UInt64.random(in: 1...head.rawValue, using: &random)))
                    }
                } catch {
                    failures.withLock { $0.append("reader \(reader), round \(round): \(error)") }
                }
                let seconds = (ContinuousClock.now - started).seconds
                slowest.withLock { $0 = max($0, seconds) }
            }
        }
        stop.store(true, ordering: .relaxed)
        while !compactor.isFinished { Thread.sleep(forTimeInterval: 0.01) }

        #expect(compactions.load(ordering: .relaxed) >= 5, "the compactions ran beside the reads")
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { Array($0.prefix(5)) })")
        #expect(slowest.withLock { $0 } < 1, "the slowest read took \(slowest.withLock { $0 }) s")
        #expect(try library.open().verify().isClean)
    }
}

extension Duration {
    fileprivate var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
