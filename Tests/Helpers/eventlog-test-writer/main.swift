// A child process for the EventLog tests that need real processes: crash and concurrency tests.
//
//   eventlog-test-writer LIBRARY TAG COUNT [EVENTS-PER-COMMIT]
//
// Appends COUNT commits to stream `writer-TAG`, each taking the writer lock on its own, and prints
// `done TAG I FIRST LAST` (flushed) after `append` returns for commit I: a line means "acknowledged".
import EventLog
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: eventlog-test-writer LIBRARY TAG COUNT [EVENTS-PER-COMMIT]\n".utf8))
    exit(64)
}
let library = arguments[1], tag = arguments[2]
let perCommit = arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1

do {
    let log = try EventLog.create(at: library, options: .init(segmentSizeLimit: 64 << 10, lockTimeout: .seconds(60)))
    let stream = StreamID(rawValue: "writer-\(tag)")!
    for i in 1...count {
        let events = (1...perCommit).map { j in
            ProposedEvent(stream: stream, type: "Appended", json: #"{"tag":"\#(tag)","i":\#(i),"j":\#(j),"pad":"\#(String(repeating: "x", count: 40))"}"#)
        }
        let result = try log.write { writer in
            try writer.append(Commit(events: events, commandID: CommandID(UUID()), actor: "test-\(tag)", timestamp: Date()))
        }
        // Unbuffered: the line is out before the next append starts, so a kill cannot lose it.
        FileHandle.standardOutput.write(Data("done \(tag) \(i) \(result.positions.lowerBound) \(result.positions.upperBound)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("eventlog-test-writer: \(error)\n".utf8))
    exit(1)
}
