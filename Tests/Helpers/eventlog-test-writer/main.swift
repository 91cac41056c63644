// A child process for the EventLog tests that need real processes: crash, concurrency and permission tests.
//
//   eventlog-test-writer append LIBRARY TAG COUNT [EVENTS-PER-COMMIT]
//       Appends COUNT commits to stream `writer-TAG`, each taking the writer lock on its own, and prints
//       `done TAG I FIRST LAST` after `append` returns for commit I: a printed line means "acknowledged".
//   eventlog-test-writer create LIBRARY
//   eventlog-test-writer write LIBRARY
//   eventlog-test-writer put LIBRARY TEXT
//       Stores TEXT as a blob in the library's blob store and prints its sha256.
//       Creates a library, or opens one and takes its writer lock. Prints the error and exits 3 on refusal.
import EventLog
import Foundation

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("eventlog-test-writer: \(message)\n".utf8))
    exit(code)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let options = EventLog.Options(segmentSizeLimit: 64 << 10, lockTimeout: .seconds(60))
do {
    switch (arguments.first, arguments.count) {
    case ("append", 4...5):
        guard let count = Int(arguments[3]) else { fail("COUNT must be a number", code: 64) }
        let library = arguments[1], tag = arguments[2]
        let perCommit = arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1
        let log = try EventLog.create(at: library, options: options)
        let stream = StreamID(rawValue: "writer-\(tag)")!
        for i in 1...count {
            let events = (1...perCommit).map { j in
                ProposedEvent(
                    stream: stream, type: "Appended",
                    json: #"{"tag":"\#(tag)","i":\#(i),"j":\#(j),"pad":"\#(String(repeating: "x", count: 40))"}"#)
            }
            let result = try log.write { writer in
                try writer.append(Commit(events: events, commandID: CommandID(UUID()), actor: "test-\(tag)", timestamp: Timestamp(Date())!))
            }
            // Unbuffered: the line is out before the next append starts, so a kill cannot lose it.
            FileHandle.standardOutput.write(
                Data("done \(tag) \(i) \(result.positions.lowerBound) \(result.positions.upperBound)\n".utf8))
        }
    case ("create", 2):
        _ = try EventLog.create(at: arguments[1], options: options)
    case ("write", 2):
        try EventLog(at: arguments[1], options: options).write { _ in }
    case ("put", 3):
        print(try EventLog(at: arguments[1], options: options).blobs.put(Array(arguments[2].utf8)).sha256)
    default:
        fail("usage: append LIBRARY TAG COUNT [EVENTS-PER-COMMIT] | create LIBRARY | write LIBRARY | put LIBRARY TEXT", code: 64)
    }
} catch let error as EventLogError {
    fail(error.description, code: 3)
} catch {
    fail("\(error)", code: 1)
}
