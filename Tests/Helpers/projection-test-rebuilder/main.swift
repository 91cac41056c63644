// A child process for the projection crash test.
//
//   projection-test-rebuilder LIBRARY BATCH-SIZE PAUSE-MS
//
// Opens the library's read models and rebuilds all of them by replay, BATCH-SIZE events per
// transaction, printing `progress DONE TOTAL` and pausing PAUSE-MS after each batch, so that a test
// can kill it mid-way; then prints `done` once the new generation is live.
import EventLog
import Foundation
import Projections

let arguments = CommandLine.arguments
guard arguments.count == 4, let batchSize = Int(arguments[2]), let pause = UInt32(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: projection-test-rebuilder LIBRARY BATCH-SIZE PAUSE-MS\n".utf8))
    exit(64)
}
do {
    let log = try EventLog(at: arguments[1])
    let readModel = try ReadModel(library: arguments[1], log: log, batchSize: batchSize)
    try readModel.rebuild(log: log) { progress in
        FileHandle.standardOutput.write(Data("progress \(progress.done) \(progress.total)\n".utf8))
        usleep(pause * 1000)
    }
    FileHandle.standardOutput.write(Data("done\n".utf8))
} catch {
    FileHandle.standardError.write(Data("projection-test-rebuilder: \(error)\n".utf8))
    exit(1)
}
